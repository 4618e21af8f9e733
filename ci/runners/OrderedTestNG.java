/*
 * OrderedTestNG: runs TestNG tests in exactly the given order, in one JVM, and writes a
 * Maven-Surefire-like JUnit XML report.
 *
 *   java -cp CLASSPATH ci/runners/OrderedTestNG.java --report FILE [--] ID [ID...]
 *   java -cp CLASSPATH ci/runners/OrderedTestNG.java --list FILE [--] ROOT...
 *
 * ID is fully.qualified.Class#method. CLASSPATH holds TestNG 6.9+ (and jcommander), the
 * compiled tests and their dependencies. Single-file program: no build needed (Java 11+).
 *
 * Consecutive ids of the same class run as one TestNG <test> holding that class with
 * those methods included, so @BeforeClass/@AfterClass run once around them; a method
 * interceptor keeps TestNG's own order (priority, name) out of it. Classes interleave as
 * listed. Priorities are set aside (an annotation transformer) and a dependency on a test
 * outside the same run of ids is ignored (ignoreMissingDependencies), so the given order is
 * the run order; dependencies inside one run still hold (a failed dependee skips its
 * dependents): untangle keeps declared dependees before their dependents.
 *
 * --list writes the tests TestNG would run for the roots (a ROOT ending in .xml is a suite
 * file, any other a class; the classes make one <test>) as JSON Lines, in TestNG's own run
 * order (priorities, dependencies, preserve-order, the project's interceptors): TestNG
 * runs the suites with a global IHookable and IConfigurable that call no test and no
 * configuration method, so the order is the one a run where everything passes has. The
 * test classes are instantiated (their constructors and field initializers run) and data
 * providers are called, as in any TestNG run.
 *
 * Exit status: 0 when the tests ran (whatever their outcome) or the list was written, 2
 * for a usage error or an unknown class or method (nothing is run then), 1 when the
 * report or the list cannot be written.
 */

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.testng.IAnnotationTransformer;
import org.testng.IConfigurable;
import org.testng.IConfigureCallBack;
import org.testng.IHookCallBack;
import org.testng.IHookable;
import org.testng.IMethodInstance;
import org.testng.IMethodInterceptor;
import org.testng.ITestContext;
import org.testng.ITestNGListener;
import org.testng.ITestResult;
import org.testng.TestListenerAdapter;
import org.testng.TestNG;
import org.testng.annotations.ITestAnnotation;
import org.testng.xml.XmlClass;
import org.testng.xml.XmlInclude;
import org.testng.xml.XmlSuite;
import org.testng.xml.XmlTest;

public class OrderedTestNG {
    /** The position of each id in the given order: the interceptor sorts by it. */
    static final Map<String, Integer> POSITION = new HashMap<>();
    static final List<String> CASES = new ArrayList<>();
    static String report;
    static int failures, errors, skipped;

    public static class Order implements IMethodInterceptor {
        @Override
        public List<IMethodInstance> intercept(List<IMethodInstance> methods, ITestContext context) {
            List<IMethodInstance> out = new ArrayList<>(methods);
            out.sort((a, b) -> Integer.compare(position(a), position(b)));
            return out;
        }

        static int position(IMethodInstance m) {
            String id = m.getMethod().getTestClass().getName() + "#" + m.getMethod().getMethodName();
            return POSITION.getOrDefault(id, Integer.MAX_VALUE);
        }
    }

    /** The given order is the run order: no priority reorders a <test>, and a dependee run
     *  in an earlier <test> (TestNG's own order interleaves classes) is not missing. */
    public static class Exact implements IAnnotationTransformer {
        @Override
        @SuppressWarnings("rawtypes")
        public void transform(ITestAnnotation a, Class testClass, Constructor testConstructor,
                Method testMethod) {
            a.setPriority(0);
            a.setIgnoreMissingDependencies(true);
        }
    }

    public static class Report extends TestListenerAdapter {
        @Override
        public void onTestSuccess(ITestResult r) {
            add(r, null);
        }

        @Override
        public void onTestFailure(ITestResult r) {
            Throwable t = r.getThrowable();
            boolean assertion = t instanceof AssertionError;
            if (assertion) {
                failures++;
            } else {
                errors++;
            }
            add(r, (assertion ? "failure" : "error"));
        }

        @Override
        public void onTestSkipped(ITestResult r) {
            skipped++;
            add(r, "skipped");
        }
    }

    static void add(ITestResult r, String kind) {
        double s = Math.max(0, r.getEndMillis() - r.getStartMillis()) / 1000.0;
        StringBuilder b = new StringBuilder();
        b.append("  <testcase classname=\"").append(attr(r.getTestClass().getName()))
                .append("\" name=\"").append(attr(r.getMethod().getMethodName()))
                .append("\" time=\"").append(String.format(Locale.ROOT, "%.3f", s)).append('"');
        Throwable t = r.getThrowable();
        if (kind == null) {
            b.append("/>\n");
        } else if (kind.equals("skipped")) {
            b.append(">\n    <skipped/>\n  </testcase>\n");
        } else {
            StringWriter trace = new StringWriter();
            if (t != null) {
                t.printStackTrace(new PrintWriter(trace));
            }
            b.append(">\n    <").append(kind).append(" message=\"")
                    .append(attr(t == null ? "" : String.valueOf(t.getMessage())))
                    .append("\" type=\"").append(attr(t == null ? "" : t.getClass().getName()))
                    .append("\">").append(text(trace.toString())).append("</").append(kind)
                    .append(">\n  </testcase>\n");
        }
        CASES.add(b.toString());
        System.out.println((kind == null ? "pass" : kind) + " " + r.getTestClass().getName() + "#"
                + r.getMethod().getMethodName());
        write();
    }

    /** Rewritten after every test, so a killed run keeps its results. */
    static void write() {
        StringBuilder b = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        b.append("<testsuite name=\"OrderedTestNG\" tests=\"").append(CASES.size())
                .append("\" failures=\"").append(failures).append("\" errors=\"").append(errors)
                .append("\" skipped=\"").append(skipped).append("\">\n");
        for (String c : CASES) {
            b.append(c);
        }
        b.append("</testsuite>\n");
        try {
            Files.write(Paths.get(report), b.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            System.err.println("OrderedTestNG: cannot write " + report + ": " + e.getMessage());
            System.exit(1);
        }
    }

    /** --list: records the tests TestNG starts; neither they nor configuration methods run. */
    public static class Lister extends TestListenerAdapter implements IHookable, IConfigurable {
        final Set<String> ids = new LinkedHashSet<>();
        final List<String> lines = new ArrayList<>();

        @Override
        public void run(IHookCallBack callBack, ITestResult r) {
            // the test's body is not called: it passes
        }

        @Override
        public void run(IConfigureCallBack callBack, ITestResult r) {
            // nor a configuration method's
        }

        @Override
        public void onTestStart(ITestResult r) {
            record(r);
        }

        @Override
        public void onTestSkipped(ITestResult r) {
            record(r);
        }

        void record(ITestResult r) {
            String cls = r.getTestClass().getName();
            String method = r.getMethod().getMethodName();
            if (ids.add(cls + "#" + method)) {
                lines.add("{\"id\": " + json(cls + "#" + method) + ", \"name\": " + json(method) + "}");
            }
        }
    }

    static int list(String file, List<String> roots) {
        List<String> lines = new ArrayList<>();
        List<String> xmls = new ArrayList<>();
        XmlSuite suite = new XmlSuite();
        suite.setName("untangle list");
        XmlTest test = new XmlTest(suite);
        test.setName("classes");
        List<XmlClass> classes = new ArrayList<>();
        for (String root : roots) {
            if (root.endsWith(".xml")) {
                if (Files.isRegularFile(Paths.get(root))) {
                    xmls.add(root);
                } else {
                    lines.add("{\"error\": " + json("no suite file " + root) + ", \"file\": " + json(root) + "}");
                }
                continue;
            }
            try {
                Class.forName(root, false, OrderedTestNG.class.getClassLoader());
                classes.add(new XmlClass(root, false));
            } catch (ClassNotFoundException | LinkageError e) {
                lines.add("{\"error\": " + json("cannot load class " + root + ": " + e) + "}");
            }
        }
        test.setXmlClasses(classes);
        Lister lister = new Lister();
        if (!xmls.isEmpty() || !classes.isEmpty()) {
            TestNG tng = new TestNG(false);
            tng.setUseDefaultListeners(false);
            tng.setVerbose(0);
            if (!classes.isEmpty()) {
                tng.setXmlSuites(new ArrayList<>(Collections.singletonList(suite)));
            }
            if (!xmls.isEmpty()) {
                tng.setTestSuites(xmls);
            }
            tng.addListener((ITestNGListener) lister);
            try {
                tng.run();
            } catch (RuntimeException | LinkageError e) {
                lines.add("{\"error\": " + json("TestNG could not run the roots: " + e) + "}");
            }
        }
        lines.addAll(lister.lines);
        StringBuilder b = new StringBuilder();
        for (String l : lines) {
            b.append(l).append('\n');
        }
        try {
            Files.write(Paths.get(file), b.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            System.err.println("OrderedTestNG: cannot write " + file + ": " + e.getMessage());
            return 1;
        }
        return 0;
    }

    public static void main(String[] args) {
        List<String> ids = new ArrayList<>();
        String listFile = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--report") && i + 1 < args.length) {
                report = args[++i];
            } else if (args[i].equals("--list") && i + 1 < args.length) {
                listFile = args[++i];
            } else if (!args[i].equals("--")) {
                ids.add(args[i]);
            }
        }
        if (listFile != null && report == null) {
            System.exit(list(listFile, ids));
        }
        if (report == null || ids.isEmpty()) {
            System.err.println("usage: OrderedTestNG --report FILE [--] Class#method...\n"
                    + "       OrderedTestNG --list FILE [--] suite.xml|Class...");
            System.exit(2);
        }
        XmlSuite suite = new XmlSuite();
        suite.setName("untangle");
        boolean bad = false;
        XmlClass current = null;
        for (String id : ids) {
            int hash = id.indexOf('#');
            String cls = hash > 0 ? id.substring(0, hash) : "";
            String method = hash > 0 ? id.substring(hash + 1) : "";
            if (!known(cls, method)) {
                System.err.println("OrderedTestNG: unknown test '" + id + "'");
                bad = true;
                continue;
            }
            if (POSITION.putIfAbsent(id, POSITION.size()) != null) {
                System.err.println("OrderedTestNG: '" + id + "' listed twice");
                bad = true;
                continue;
            }
            if (current == null || !current.getName().equals(cls)) {
                XmlTest test = new XmlTest(suite);
                test.setName("run " + suite.getTests().size());
                current = new XmlClass(cls, false);
                test.setXmlClasses(new ArrayList<>(Collections.singletonList(current)));
            }
            current.getIncludedMethods().add(new XmlInclude(method));
        }
        if (bad) {
            System.exit(2);
        }
        write();
        TestNG tng = new TestNG(false);
        tng.setUseDefaultListeners(false);
        tng.setXmlSuites(Collections.singletonList(suite));
        tng.addListener((ITestNGListener) new Exact());
        tng.addListener((ITestNGListener) new Order());
        tng.addListener((ITestNGListener) new Report());
        tng.run();
        System.exit(0);
    }

    static boolean known(String cls, String method) {
        try {
            for (Method m : Class.forName(cls).getMethods()) {
                if (m.getName().equals(method)) {
                    return true;
                }
            }
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
        return false;
    }

    /** A JSON string literal. */
    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    static String attr(String s) {
        return escape(s, true);
    }

    static String text(String s) {
        return escape(s, false);
    }

    static String escape(String s, boolean attribute) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            switch (cp) {
                case '<': b.append("&lt;"); break;
                case '>': b.append("&gt;"); break;
                case '&': b.append("&amp;"); break;
                case '"': b.append(attribute ? "&quot;" : "\""); break;
                case '\n': b.append(attribute ? "&#10;" : "\n"); break;
                case '\r': b.append("&#13;"); break;
                case '\t': b.append(attribute ? "&#9;" : "\t"); break;
                default:
                    boolean valid = (cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD)
                            || (cp >= 0x10000 && cp <= 0x10FFFF);
                    if (valid) {
                        b.appendCodePoint(cp);
                    }
            }
        }
        return b.toString();
    }
}
