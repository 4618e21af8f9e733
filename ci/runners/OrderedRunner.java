/*
 * OrderedRunner: runs JUnit 4 tests in exactly the given order, in one JVM, and writes
 * a Maven-Surefire-like JUnit XML report.
 *
 *   java -cp CLASSPATH ci/runners/OrderedRunner.java --report FILE ID [ID...]
 *   java -cp CLASSPATH ci/runners/OrderedRunner.java --list FILE [--] ROOT...
 *
 * ID is fully.qualified.Class#method (a method name as the class's runner reports it,
 * e.g. "test[0]" for Parameterized). CLASSPATH holds junit 4.12+ (and hamcrest), the
 * compiled tests and their dependencies. Single-file program: no build needed (Java 11+).
 *
 * Consecutive ids of the same class run as one JUnit request (filtered and sorted into
 * the given order), so @BeforeClass/@AfterClass run once around them, as in a normal
 * class run; @Before/@After/@Rule are handled by the class's own runner.
 *
 * The report is rewritten after every finished test, so a killed run keeps its results.
 *
 * --list writes, as JSON Lines, the tests JUnitCore runs for the ROOT classes (a suite
 * class gives its whole tree) in its run order, from their runners' descriptions: nothing
 * runs (a Parameterized class's parameters are computed). An @Ignore test is listed with
 * "pending": true (JUnit reports it ignored).
 *
 * Exit status: 0 when the tests ran (whatever their outcome) or the list was written, 2
 * for a usage error or an unknown class or method (nothing is run then), 1 when the report
 * or the list cannot be written.
 */

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Runner;
import org.junit.runner.manipulation.Filter;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;

public class OrderedRunner {

    /** One requested test: an id split into class and method. */
    static final class TestId {
        final String id;
        final Class<?> testClass;
        final String method;
        final Description description;

        TestId(String id, Class<?> testClass, String method, Description description) {
            this.id = id;
            this.testClass = testClass;
            this.method = method;
            this.description = description;
        }
    }

    /** The outcome of one test execution, in run order. */
    static final class Result {
        final String className;
        final String name;
        long startNanos;
        double seconds;
        String kind = "passed"; // passed, failure, error, skipped
        String type;
        String message;
        String detail;
        boolean started;
        boolean finished;

        Result(String className, String name) {
            this.className = className;
            this.name = name;
        }
    }

    static final class Listener extends RunListener {
        final List<Result> results;
        final Map<Description, Result> current = new HashMap<>();
        final List<Failure> classLevel = new ArrayList<>();

        Listener(List<Result> results) {
            this.results = results;
        }

        private Result open(Description d) {
            Result r = new Result(className(d), d.getMethodName());
            results.add(r);
            current.put(d, r);
            return r;
        }

        @Override
        public void testStarted(Description d) {
            Result r = open(d);
            r.started = true;
            r.startNanos = System.nanoTime();
        }

        @Override
        public void testFinished(Description d) {
            Result r = current.remove(d);
            if (r != null) {
                r.seconds = (System.nanoTime() - r.startNanos) / 1e9;
                r.finished = true;
                print(r);
            }
        }

        @Override
        public void testFailure(Failure f) {
            Description d = f.getDescription();
            Result r = current.get(d);
            if (r == null || d.getMethodName() == null) {
                classLevel.add(f);
                return;
            }
            record(r, f, isAssertion(f.getException()) ? "failure" : "error");
        }

        @Override
        public void testAssumptionFailure(Failure f) {
            Result r = current.get(f.getDescription());
            if (r == null) {
                classLevel.add(f);
                return;
            }
            if (!r.kind.equals("passed")) {
                return;
            }
            r.kind = "skipped";
            r.message = f.getMessage();
        }

        @Override
        public void testIgnored(Description d) {
            Result r = open(d);
            current.remove(d);
            r.kind = "skipped";
            org.junit.Ignore ignore = d.getAnnotation(org.junit.Ignore.class);
            if (ignore != null && !ignore.value().isEmpty()) {
                r.message = ignore.value();
            }
            print(r);
        }
    }

    /** One line per finished test, as it finishes (progress for long browser suites). */
    static void print(Result r) {
        System.out.printf(Locale.ROOT, "%-7s %s#%s (%.3f s)%n",
                r.kind.toUpperCase(Locale.ROOT), r.className, r.name, r.seconds);
        System.out.flush();
        if (afterEach != null) {
            afterEach.run();
        }
    }

    static void record(Result r, Failure f, String kind) {
        if (r.kind.equals("failure") || r.kind.equals("error")) {
            // a second problem (e.g. in @After): keep the first, append the second
            r.detail = r.detail + "\n" + trace(f.getException());
            if (kind.equals("error")) {
                r.kind = "error";
            }
            return;
        }
        Throwable t = f.getException();
        r.kind = kind;
        r.type = t == null ? "java.lang.Throwable" : t.getClass().getName();
        r.message = t == null ? f.getMessage() : t.getMessage();
        r.detail = trace(t);
    }

    static boolean isAssertion(Throwable t) {
        return t instanceof AssertionError;
    }

    static String trace(Throwable t) {
        if (t == null) {
            return "";
        }
        StringWriter sw = new StringWriter();
        t.printStackTrace(new PrintWriter(sw));
        return sw.toString();
    }

    static String className(Description d) {
        return d.getClassName();
    }

    /** Leaf descriptions of a class's runner, to validate method names the runner's way. */
    static void leaves(Description d, List<Description> out) {
        if (d.isTest()) {
            out.add(d);
        }
        for (Description child : d.getChildren()) {
            leaves(child, out);
        }
    }

    /** Rewrites the report after every finished test, so that a killed run keeps what it ran. */
    static Runnable afterEach;

    static int usage(String message) {
        System.err.println("OrderedRunner: " + message);
        System.err.println("usage: java -cp CLASSPATH OrderedRunner.java --report FILE fully.qualified.Class#method ...\n"
                + "       java -cp CLASSPATH OrderedRunner.java --list FILE [--] fully.qualified.Class ...");
        return 2;
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** --list: the leaf descriptions of the roots' runners, in order, once each. */
    static int list(String file, List<String> roots) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        StringBuilder out = new StringBuilder();
        Set<String> seen = new HashSet<>();
        for (String root : roots) {
            List<Description> leaves = new ArrayList<>();
            try {
                Class<?> c = Class.forName(root, false, loader);
                leaves(Request.aClass(c).getRunner().getDescription(), leaves);
            } catch (ClassNotFoundException | LinkageError | RuntimeException e) {
                out.append("{\"error\": ").append(json("cannot load class " + root + ": " + e)).append("}\n");
                continue;
            }
            for (Description d : leaves) {
                boolean ignored = d.getAnnotation(org.junit.Ignore.class) != null;
                if (ignored && d.getMethodName() == null) {
                    continue; // an @Ignore class: JUnit reports it ignored, runs nothing
                }
                if (d.getMethodName() == null || "initializationError".equals(d.getMethodName())) {
                    out.append("{\"error\": ").append(json("JUnit cannot run " + d.getDisplayName()
                            + " (given " + root + ")")).append("}\n");
                } else if (seen.add(d.getClassName() + "#" + d.getMethodName())) {
                    out.append("{\"id\": ").append(json(d.getClassName() + "#" + d.getMethodName()))
                            .append(", \"name\": ").append(json(d.getMethodName()))
                            .append(ignored ? ", \"pending\": true}\n" : "}\n");
                }
            }
        }
        try {
            Files.write(Paths.get(file), out.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            System.err.println("OrderedRunner: cannot write " + file + ": " + e);
            return 1;
        }
        return 0;
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

    static int run(String[] args) {
        String report = null;
        String listFile = null;
        List<String> ids = new ArrayList<>();
        boolean optionsDone = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!optionsDone && a.equals("--")) {
                optionsDone = true;
            } else if (!optionsDone && a.equals("--report")) {
                if (i + 1 >= args.length) {
                    return usage("--report needs a file");
                }
                report = args[++i];
            } else if (!optionsDone && a.startsWith("--report=")) {
                report = a.substring("--report=".length());
            } else if (!optionsDone && a.equals("--list") && i + 1 < args.length) {
                listFile = args[++i];
            } else if (!optionsDone && (a.equals("-h") || a.equals("--help"))) {
                usage("help");
                return 0;
            } else if (!optionsDone && a.startsWith("--")) {
                return usage("unknown option " + a);
            } else {
                ids.add(a);
            }
        }
        if (listFile != null && report == null) {
            return list(listFile, ids);
        }
        if (report == null) {
            return usage("--report FILE (or --list FILE) is required");
        }
        if (ids.isEmpty()) {
            return usage("no test ids given");
        }

        // Resolve every id before running anything: an unknown test is a usage error.
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = OrderedRunner.class.getClassLoader();
        }
        Map<Class<?>, List<Description>> known = new HashMap<>();
        List<TestId> tests = new ArrayList<>();
        boolean bad = false;
        for (String id : ids) {
            int hash = id.lastIndexOf('#');
            if (hash <= 0 || hash == id.length() - 1) {
                System.err.println("OrderedRunner: not a Class#method id: " + id);
                bad = true;
                continue;
            }
            String cls = id.substring(0, hash);
            String method = id.substring(hash + 1);
            Class<?> c;
            try {
                c = Class.forName(cls, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                System.err.println("OrderedRunner: unknown class " + cls + " (in " + id + "): " + e);
                bad = true;
                continue;
            }
            List<Description> leaves = known.get(c);
            if (leaves == null) {
                leaves = new ArrayList<>();
                leaves(Request.aClass(c).getRunner().getDescription(), leaves);
                known.put(c, leaves);
            }
            Description match = null;
            for (Description d : leaves) {
                if (method.equals(d.getMethodName()) && cls.equals(d.getClassName())) {
                    match = d;
                    break;
                }
            }
            if (match == null && leaves.size() == 1
                    && "initializationError".equals(leaves.get(0).getMethodName())) {
                System.err.println("OrderedRunner: class " + cls + " cannot be run by JUnit 4 (no public @Test methods, "
                        + "or an invalid test class) (in " + id + ")");
                bad = true;
                continue;
            }
            if (match == null) {
                System.err.println("OrderedRunner: unknown test method " + method + " in class " + cls + " (in " + id + ")");
                bad = true;
                continue;
            }
            tests.add(new TestId(id, c, method, match));
        }
        if (bad) {
            return 2;
        }

        // Group consecutive tests of one class (without repeats) into one request.
        List<List<TestId>> groups = new ArrayList<>();
        for (TestId t : tests) {
            List<TestId> last = groups.isEmpty() ? null : groups.get(groups.size() - 1);
            boolean joins = last != null && last.get(0).testClass == t.testClass;
            if (joins) {
                for (TestId o : last) {
                    if (o.description.equals(t.description)) {
                        joins = false;
                        break;
                    }
                }
            }
            if (joins) {
                last.add(t);
            } else {
                List<TestId> g = new ArrayList<>();
                g.add(t);
                groups.add(g);
            }
        }

        List<Result> results = new ArrayList<>();
        JUnitCore core = new JUnitCore();
        Listener listener = new Listener(results);
        core.addListener(listener);
        LocalDateTime started = LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS);
        long t0 = System.nanoTime();
        Path reportPath = Paths.get(report);
        afterEach = () -> {
            try {
                writeReport(reportPath, results, (System.nanoTime() - t0) / 1e9, started);
            } catch (IOException e) {
                // reported once at the end, where the final write fails the same way
            }
        };
        for (List<TestId> group : groups) {
            List<Request> requests = requestsFor(group);
            for (int i = 0; i < requests.size(); i++) {
                List<TestId> covered = requests.size() == 1 ? group : List.of(group.get(i));
                int before = results.size();
                listener.classLevel.clear();
                core.run(requests.get(i));
                attributeClassLevel(listener, results, before, covered);
            }
        }
        double total = (System.nanoTime() - t0) / 1e9;
        afterEach = null;

        int failures = 0;
        int errors = 0;
        int skipped = 0;
        for (Result r : results) {
            switch (r.kind) {
                case "failure": failures++; break;
                case "error": errors++; break;
                case "skipped": skipped++; break;
                default: break;
            }
        }
        System.out.printf(Locale.ROOT, "OrderedRunner: %d run, %d failures, %d errors, %d skipped in %.3f s%n",
                results.size(), failures, errors, skipped, total);

        try {
            writeReport(reportPath, results, total, started);
        } catch (IOException e) {
            System.err.println("OrderedRunner: cannot write " + report + ": " + e);
            return 1;
        }
        return 0;
    }

    /**
     * One request for the whole group when the class's runner can be filtered and sorted
     * into the wanted order; otherwise one Request.method per test.
     */
    static List<Request> requestsFor(List<TestId> group) {
        List<Request> out = new ArrayList<>();
        if (group.size() > 1) {
            Class<?> c = group.get(0).testClass;
            Map<Description, Integer> rank = new LinkedHashMap<>();
            for (TestId t : group) {
                rank.put(t.description, rank.size());
            }
            Request request = Request.aClass(c)
                    .filterWith(new Filter() {
                        @Override
                        public boolean shouldRun(Description d) {
                            if (d.isTest()) {
                                return rank.containsKey(d);
                            }
                            for (Description child : d.getChildren()) {
                                if (shouldRun(child)) {
                                    return true;
                                }
                            }
                            return false;
                        }

                        @Override
                        public String describe() {
                            return "the requested tests";
                        }
                    })
                    .sortWith((a, b) -> Integer.compare(firstRank(a, rank), firstRank(b, rank)));
            Runner runner = request.getRunner();
            List<Description> order = new ArrayList<>();
            leaves(runner.getDescription(), order);
            List<Description> wanted = new ArrayList<>(rank.keySet());
            if (order.equals(wanted)) {
                out.add(Request.runner(runner));
                return out;
            }
        }
        for (TestId t : group) {
            out.add(Request.method(t.testClass, t.method));
        }
        return out;
    }

    static int firstRank(Description d, Map<Description, Integer> rank) {
        Integer r = rank.get(d);
        if (r != null) {
            return r;
        }
        int best = Integer.MAX_VALUE;
        for (Description child : d.getChildren()) {
            best = Math.min(best, firstRank(child, rank));
        }
        return best;
    }

    /**
     * A failure outside any test (@BeforeClass, @AfterClass, a class rule, a runner that
     * cannot be built): requested tests that got no result fail with it, like Surefire;
     * if every test has a result, it is reported as an extra testcase named after the class.
     */
    static void attributeClassLevel(Listener listener, List<Result> results, int before, List<TestId> covered) {
        if (listener.classLevel.isEmpty()) {
            return;
        }
        Set<String> seen = new HashSet<>();
        for (int i = before; i < results.size(); i++) {
            seen.add(results.get(i).className + "#" + results.get(i).name);
        }
        List<TestId> missing = new ArrayList<>();
        for (TestId t : covered) {
            if (!seen.contains(t.description.getClassName() + "#" + t.description.getMethodName())) {
                missing.add(t);
            }
        }
        for (Failure f : listener.classLevel) {
            boolean assumption = f.getException() instanceof org.junit.AssumptionViolatedException
                    || f.getException() instanceof org.junit.internal.AssumptionViolatedException;
            String kind = assumption ? "skipped" : isAssertion(f.getException()) ? "failure" : "error";
            if (!missing.isEmpty()) {
                for (TestId t : missing) {
                    Result r = new Result(t.description.getClassName(), t.description.getMethodName());
                    results.add(r);
                    if (assumption) {
                        r.kind = "skipped";
                        r.message = f.getMessage();
                    } else {
                        record(r, f, kind);
                    }
                    print(r);
                }
                missing.clear();
            } else if (!assumption) {
                Description d = f.getDescription();
                String cls = d.getClassName() != null ? d.getClassName() : d.getDisplayName();
                Result r = new Result(cls, d.getMethodName() != null ? d.getMethodName() : cls);
                results.add(r);
                record(r, f, kind);
                print(r);
            }
        }
        listener.classLevel.clear();
    }

    static void writeReport(Path file, List<Result> results, double total, LocalDateTime started)
            throws IOException {
        int failures = 0;
        int errors = 0;
        int skipped = 0;
        for (Result r : results) {
            switch (r.kind) {
                case "failure": failures++; break;
                case "error": errors++; break;
                case "skipped": skipped++; break;
                default: break;
            }
        }
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "localhost";
        }
        StringBuilder x = new StringBuilder();
        x.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        x.append("<testsuite name=\"OrderedRunner\"")
                .append(" tests=\"").append(results.size()).append('"')
                .append(" failures=\"").append(failures).append('"')
                .append(" errors=\"").append(errors).append('"')
                .append(" skipped=\"").append(skipped).append('"')
                .append(" time=\"").append(seconds(total)).append('"')
                .append(" timestamp=\"").append(started.format(DateTimeFormatter.ISO_LOCAL_DATE_TIME)).append('"')
                .append(" hostname=\"").append(attr(host)).append('"')
                .append(">\n");
        x.append("  <properties>\n");
        x.append("    <property name=\"java.version\" value=\"").append(attr(System.getProperty("java.version"))).append("\"/>\n");
        x.append("  </properties>\n");
        for (Result r : results) {
            x.append("  <testcase name=\"").append(attr(r.name)).append('"')
                    .append(" classname=\"").append(attr(r.className)).append('"')
                    .append(" time=\"").append(seconds(r.seconds)).append('"');
            if (r.kind.equals("passed")) {
                x.append("/>\n");
                continue;
            }
            x.append(">\n");
            if (r.kind.equals("skipped")) {
                x.append("    <skipped");
                if (r.message != null) {
                    x.append(" message=\"").append(attr(r.message)).append('"');
                }
                x.append("/>\n");
            } else {
                x.append("    <").append(r.kind);
                if (r.message != null) {
                    x.append(" message=\"").append(attr(r.message)).append('"');
                }
                x.append(" type=\"").append(attr(r.type)).append("\">");
                x.append(text(r.detail));
                x.append("</").append(r.kind).append(">\n");
            }
            x.append("  </testcase>\n");
        }
        x.append("</testsuite>\n");
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp-" + ProcessHandle.current().pid());
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            w.write(x.toString());
        }
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    static String seconds(double s) {
        return String.format(Locale.ROOT, "%.3f", s);
    }

    /** Escapes for an attribute value; drops characters XML 1.0 cannot hold. */
    static String attr(String s) {
        return escape(s, true);
    }

    static String text(String s) {
        return escape(s, false);
    }

    static String escape(String s, boolean attribute) {
        if (s == null) {
            return "";
        }
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
