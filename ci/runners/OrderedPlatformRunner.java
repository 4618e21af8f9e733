/*
 * OrderedPlatformRunner: runs tests on the JUnit Platform (JUnit 5 Jupiter, and JUnit 4
 * through the vintage engine) in exactly the given order, in one JVM, and writes the same
 * Maven-Surefire-like JUnit XML report as OrderedRunner.java.
 *
 *   java -cp CLASSPATH ci/runners/OrderedPlatformRunner.java --report FILE [--] ID...
 *   java -cp CLASSPATH ci/runners/OrderedPlatformRunner.java --list FILE [--] ROOT...
 *
 * ID is fully.qualified.Class#method (Surefire's -Dtest form; "method(java.lang.String)"
 * picks one of several overloads). CLASSPATH holds junit-platform-launcher, the engines,
 * junit-jupiter-api (Debian's /usr/share/java/junit-platform-console-standalone.jar has
 * them all), the compiled tests and their dependencies. Single-file program (Java 11+).
 *
 * The Platform's console launcher cannot do this: it merges the selected methods of a
 * class into one class run, so "A#3 B#1 A#1" runs as "A#3 A#1 B#1". Here consecutive ids of one class run as one launcher request
 * when the engine then runs them in the given order (Jupiter is asked to, through
 * junit.jupiter.testmethod.order.default; the discovered plan is checked), so that
 * @BeforeAll/@AfterAll run once around them; otherwise each id is its own request.
 *
 * The report is rewritten after every finished test, so a killed run keeps its results.
 *
 * --list writes, as JSON Lines, the tests the Platform's discovery finds for the ROOT
 * classes (suites included), in the test plan's order, which is the order the engines run
 * them in; nothing runs. One id per method (invocations of a parameterized or repeated
 * method are one id, as above); a @Disabled/@Ignore test is listed with "pending": true.
 *
 * Exit status: 0 when the tests ran (whatever their outcome) or the list was written, 2
 * for a usage error or an id that names no test (nothing is run then), 1 when the report
 * or the list cannot be written.
 */

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.MethodDescriptor;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.MethodOrdererContext;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

public class OrderedPlatformRunner {

    /** One requested test: its class, method name and selector. */
    record Wanted(String id, Class<?> testClass, String method, DiscoverySelector selector) {
        String key() {
            return testClass.getName() + "#" + method;
        }
    }

    /** The outcome of one requested test in one request (invocations of a parameterized or
     *  repeated test are folded into it: the worst of them counts). */
    static final class Outcome {
        final String className;
        final String name;
        final long startNanos = System.nanoTime();
        double seconds;
        String kind = "passed"; // passed, failure, error, skipped
        String type;
        String message;
        String detail;

        Outcome(String className, String name) {
            this.className = className;
            this.name = name;
        }

        void fail(Throwable t) {
            String k = t instanceof AssertionError ? "failure" : "error";
            if (kind.equals("failure") || kind.equals("error")) {
                detail = detail + "\n" + trace(t);
                if (k.equals("error")) {
                    kind = k;
                }
                return;
            }
            kind = k;
            type = t.getClass().getName();
            message = t.getMessage();
            detail = trace(t);
        }

        void skip(String reason) {
            if (kind.equals("passed")) {
                kind = "skipped";
                message = reason;
            }
        }
    }

    /** Jupiter's method order for a request: the order of the ids (set before discovery). */
    public static final class ListOrder implements MethodOrderer {
        static volatile List<String> wanted = List.of();

        @Override
        public void orderMethods(MethodOrdererContext context) {
            context.getMethodDescriptors().sort(Comparator.comparingInt((MethodDescriptor d) -> {
                int i = wanted.indexOf(d.getMethod().getName());
                return i < 0 ? Integer.MAX_VALUE : i;
            }));
        }
    }

    /** Collects outcomes of one request, keyed by class#method of the test's MethodSource. */
    static final class Listener implements TestExecutionListener {
        final Map<String, Wanted> wanted = new HashMap<>();
        final Map<String, Outcome> open = new HashMap<>();
        final Map<String, TestIdentifier> owner = new HashMap<>();
        final List<Outcome> results;
        final List<String[]> containerFailures = new ArrayList<>();
        Runnable afterEach;

        Listener(List<Outcome> results) {
            this.results = results;
        }

        String keyOf(TestIdentifier id) {
            Optional<TestSource> source = id.getSource();
            if (source.isPresent() && source.get() instanceof MethodSource) {
                MethodSource m = (MethodSource) source.get();
                String key = m.getClassName() + "#" + m.getMethodName();
                return wanted.containsKey(key) ? key : null;
            }
            return null;
        }

        @Override
        public void executionStarted(TestIdentifier id) {
            String key = keyOf(id);
            if (key != null && !open.containsKey(key)) {
                Wanted w = wanted.get(key);
                open.put(key, new Outcome(w.testClass().getName(), w.method()));
                owner.put(key, id);
            }
        }

        @Override
        public void executionSkipped(TestIdentifier id, String reason) {
            String key = keyOf(id);
            if (key == null) {
                return;
            }
            boolean mine = !open.containsKey(key);
            executionStarted(id);
            open.get(key).skip(reason);
            if (mine) {
                finish(key);
            }
        }

        @Override
        public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            String key = keyOf(id);
            Throwable t = result.getThrowable().orElse(null);
            if (key == null) {
                if (result.getStatus() == TestExecutionResult.Status.FAILED) {
                    containerFailures.add(new String[] {sourceClass(id), id.getDisplayName(),
                        t == null ? "error" : t instanceof AssertionError ? "failure" : "error",
                        t == null ? null : t.getClass().getName(), t == null ? null : t.getMessage(),
                        trace(t)});
                }
                return;
            }
            Outcome o = open.get(key);
            if (o == null) {
                return;
            }
            if (result.getStatus() == TestExecutionResult.Status.FAILED) {
                o.fail(t == null ? new AssertionError("failed") : t);
            } else if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
                o.skip(t == null ? "aborted" : t.getMessage());
            }
            if (owner.get(key).equals(id)) {
                finish(key);
            }
        }

        void finish(String key) {
            Outcome o = open.remove(key);
            owner.remove(key);
            o.seconds = (System.nanoTime() - o.startNanos) / 1e9;
            results.add(o);
            System.out.printf(Locale.ROOT, "%-7s %s#%s (%.3f s)%n", o.kind.toUpperCase(Locale.ROOT),
                    o.className, o.name, o.seconds);
            System.out.flush();
            if (afterEach != null) {
                afterEach.run();
            }
        }
    }

    static String sourceClass(TestIdentifier id) {
        Optional<TestSource> source = id.getSource();
        if (source.isPresent() && source.get() instanceof ClassSource) {
            return ((ClassSource) source.get()).getClassName();
        }
        return id.getDisplayName();
    }

    static String trace(Throwable t) {
        if (t == null) {
            return "";
        }
        StringWriter sw = new StringWriter();
        t.printStackTrace(new PrintWriter(sw));
        return sw.toString();
    }

    static int usage(String message) {
        System.err.println("OrderedPlatformRunner: " + message);
        System.err.println("usage: java -cp CLASSPATH OrderedPlatformRunner.java --report FILE "
                + "[--] fully.qualified.Class#method ...\n"
                + "       java -cp CLASSPATH OrderedPlatformRunner.java --list FILE [--] fully.qualified.Class ...");
        return 2;
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** --list: the discovered plan of the roots, Class#method in the engines' order. */
    static int list(String file, List<String> roots) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        StringBuilder out = new StringBuilder();
        List<DiscoverySelector> selectors = new ArrayList<>();
        for (String root : roots) {
            try {
                selectors.add(DiscoverySelectors.selectClass(Class.forName(root, false, loader)));
            } catch (ClassNotFoundException | LinkageError e) {
                out.append("{\"error\": ").append(json("cannot load class " + root + ": " + e)).append("}\n");
            }
        }
        if (!selectors.isEmpty()) {
            TestPlan plan = LauncherFactory.create()
                    .discover(LauncherDiscoveryRequestBuilder.request().selectors(selectors).build());
            Set<String> seen = new LinkedHashSet<>();
            List<TestIdentifier> stack = new ArrayList<>(plan.getRoots());
            while (!stack.isEmpty()) {
                TestIdentifier id = stack.remove(0);
                stack.addAll(0, plan.getChildren(id));
                Optional<TestSource> source = id.getSource();
                if (source.isPresent() && source.get() instanceof MethodSource) {
                    MethodSource m = (MethodSource) source.get();
                    if (seen.add(m.getClassName() + "#" + m.getMethodName())) {
                        out.append("{\"id\": ").append(json(m.getClassName() + "#" + m.getMethodName()))
                                .append(", \"name\": ").append(json(m.getMethodName()))
                                .append(disabled(m, loader) ? ", \"pending\": true}\n" : "}\n");
                    }
                } else if (id.isTest()) {
                    out.append("{\"error\": ").append(json("not a method: " + id.getUniqueId())).append("}\n");
                }
            }
        }
        try {
            Files.write(Paths.get(file), out.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            System.err.println("OrderedPlatformRunner: cannot write " + file + ": " + e);
            return 1;
        }
        return 0;
    }

    /** Whether the method or its class carries @Disabled (Jupiter) or @Ignore (JUnit 4). */
    static boolean disabled(MethodSource m, ClassLoader loader) {
        try {
            Class<?> c = Class.forName(m.getClassName(), false, loader);
            List<java.lang.reflect.AnnotatedElement> where = new ArrayList<>();
            where.add(c);
            for (Class<?> k = c; k != null; k = k.getSuperclass()) {
                for (Method method : k.getDeclaredMethods()) {
                    if (method.getName().equals(m.getMethodName())) {
                        where.add(method);
                    }
                }
            }
            for (java.lang.reflect.AnnotatedElement e : where) {
                for (java.lang.annotation.Annotation a : e.getAnnotations()) {
                    String name = a.annotationType().getName();
                    if (name.equals("org.junit.jupiter.api.Disabled") || name.equals("org.junit.Ignore")) {
                        return true;
                    }
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

    static int run(String[] args) {
        String report = null;
        String listFile = null;
        List<String> ids = new ArrayList<>();
        boolean optionsDone = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!optionsDone && a.equals("--")) {
                optionsDone = true;
            } else if (!optionsDone && a.equals("--report") && i + 1 < args.length) {
                report = args[++i];
            } else if (!optionsDone && a.startsWith("--report=")) {
                report = a.substring("--report=".length());
            } else if (!optionsDone && a.equals("--list") && i + 1 < args.length) {
                listFile = args[++i];
            } else if (!optionsDone && a.startsWith("-")) {
                return usage("unknown option " + a);
            } else {
                ids.add(a);
            }
        }
        // Jupiter loads ListOrder by name through the context class loader.
        Thread.currentThread().setContextClassLoader(OrderedPlatformRunner.class.getClassLoader());
        if (listFile != null && report == null) {
            return list(listFile, ids);
        }
        if (report == null) {
            return usage("--report FILE (or --list FILE) is required");
        }
        if (ids.isEmpty()) {
            return usage("no test ids given");
        }
        List<Wanted> tests = resolve(ids);
        if (tests == null) {
            return 2;
        }
        Launcher launcher = LauncherFactory.create();
        if (!allDiscovered(launcher, tests)) {
            return 2;
        }

        List<Outcome> results = new ArrayList<>();
        Listener listener = new Listener(results);
        LocalDateTime started = LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS);
        long t0 = System.nanoTime();
        Path reportPath = Paths.get(report);
        listener.afterEach = () -> {
            try {
                writeReport(reportPath, results, (System.nanoTime() - t0) / 1e9, started);
            } catch (IOException e) {
                // reported once at the end, where the final write fails the same way
            }
        };
        for (List<Wanted> group : groups(tests)) {
            for (List<Wanted> batch : batches(launcher, group)) {
                listener.wanted.clear();
                listener.containerFailures.clear();
                for (Wanted w : batch) {
                    listener.wanted.put(w.key(), w);
                }
                int before = results.size();
                launcher.execute(request(batch), listener);
                attributeContainerFailures(listener, before, batch);
            }
        }
        listener.afterEach = null;
        double total = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "OrderedPlatformRunner: %d run in %.3f s%n", results.size(), total);
        try {
            writeReport(reportPath, results, total, started);
        } catch (IOException e) {
            System.err.println("OrderedPlatformRunner: cannot write " + report + ": " + e);
            return 1;
        }
        return 0;
    }

    /** Every id as class and method; null (after printing why) when one does not resolve. */
    static List<Wanted> resolve(List<String> ids) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        List<Wanted> out = new ArrayList<>();
        boolean bad = false;
        for (String id : ids) {
            int hash = id.lastIndexOf('#');
            if (hash <= 0 || hash == id.length() - 1) {
                System.err.println("OrderedPlatformRunner: not a Class#method id: " + id);
                bad = true;
                continue;
            }
            String cls = id.substring(0, hash);
            String method = id.substring(hash + 1);
            Class<?> c;
            try {
                c = Class.forName(cls, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                System.err.println("OrderedPlatformRunner: unknown class " + cls + " (in " + id + "): " + e);
                bad = true;
                continue;
            }
            if (method.contains("(")) {
                out.add(new Wanted(id, c, method.substring(0, method.indexOf('(')),
                        DiscoverySelectors.selectMethod(cls + "#" + method)));
                continue;
            }
            Method found = null;
            for (Class<?> k = c; k != null && found == null; k = k.getSuperclass()) {
                for (Method m : k.getDeclaredMethods()) {
                    if (m.getName().equals(method) && !Modifier.isPrivate(m.getModifiers())
                            && (found == null || m.getParameterCount() < found.getParameterCount())) {
                        found = m;
                    }
                }
            }
            if (found == null) {
                System.err.println("OrderedPlatformRunner: unknown test method " + method + " in class "
                        + cls + " (in " + id + ")");
                bad = true;
                continue;
            }
            out.add(new Wanted(id, c, method, DiscoverySelectors.selectMethod(c, found)));
        }
        return bad ? null : out;
    }

    static LauncherDiscoveryRequest request(List<Wanted> batch) {
        List<String> names = new ArrayList<>();
        List<DiscoverySelector> selectors = new ArrayList<>();
        for (Wanted w : batch) {
            names.add(w.method());
            selectors.add(w.selector());
        }
        ListOrder.wanted = List.copyOf(names);
        return LauncherDiscoveryRequestBuilder.request()
                .selectors(selectors)
                .configurationParameter("junit.jupiter.testmethod.order.default", ListOrder.class.getName())
                .build();
    }

    /** class#method of the plan's tests and test containers (parameterized methods), in order. */
    static List<String> planned(TestPlan plan) {
        Set<String> keys = new LinkedHashSet<>();
        List<TestIdentifier> stack = new ArrayList<>(plan.getRoots());
        while (!stack.isEmpty()) {
            TestIdentifier id = stack.remove(0);
            Optional<TestSource> source = id.getSource();
            if (source.isPresent() && source.get() instanceof MethodSource) {
                MethodSource m = (MethodSource) source.get();
                keys.add(m.getClassName() + "#" + m.getMethodName());
            }
            stack.addAll(0, plan.getChildren(id));
        }
        return new ArrayList<>(keys);
    }

    /** Checks, before anything runs, that every id is a test an engine will run. */
    static boolean allDiscovered(Launcher launcher, List<Wanted> tests) {
        Set<String> found = new LinkedHashSet<>();
        for (List<Wanted> group : groups(tests)) {
            found.addAll(planned(launcher.discover(request(group))));
        }
        boolean ok = true;
        for (Wanted w : tests) {
            if (!found.contains(w.key())) {
                System.err.println("OrderedPlatformRunner: no engine runs " + w.id()
                        + " (not a test method, or disabled by a filter)");
                ok = false;
            }
        }
        return ok;
    }

    /** Consecutive ids of one class (without repeats). */
    static List<List<Wanted>> groups(List<Wanted> tests) {
        List<List<Wanted>> out = new ArrayList<>();
        for (Wanted t : tests) {
            List<Wanted> last = out.isEmpty() ? null : out.get(out.size() - 1);
            boolean joins = last != null && last.get(0).testClass() == t.testClass();
            for (int i = 0; joins && i < last.size(); i++) {
                joins = !last.get(i).key().equals(t.key());
            }
            if (joins) {
                last.add(t);
            } else {
                out.add(new ArrayList<>(List.of(t)));
            }
        }
        return out;
    }

    /** The group as one request when its plan runs the ids in the given order, else one
     *  request per id. */
    static List<List<Wanted>> batches(Launcher launcher, List<Wanted> group) {
        List<List<Wanted>> out = new ArrayList<>();
        if (group.size() > 1) {
            List<String> want = new ArrayList<>();
            for (Wanted w : group) {
                want.add(w.key());
            }
            if (planned(launcher.discover(request(group))).equals(want)) {
                out.add(group);
                return out;
            }
        }
        for (Wanted w : group) {
            out.add(List.of(w));
        }
        return out;
    }

    /**
     * A failure outside any requested test (@BeforeAll, @AfterAll, a class rule, an engine):
     * requested tests without an outcome get it, like Surefire; when all have one, it is an
     * extra testcase named after the class.
     */
    static void attributeContainerFailures(Listener listener, int before, List<Wanted> batch) {
        for (String[] f : listener.containerFailures) {
            List<Wanted> missing = new ArrayList<>();
            for (Wanted w : batch) {
                boolean seen = false;
                for (int i = before; i < listener.results.size() && !seen; i++) {
                    Outcome o = listener.results.get(i);
                    seen = o.className.equals(w.testClass().getName()) && o.name.equals(w.method());
                }
                if (!seen) {
                    missing.add(w);
                }
            }
            List<Outcome> add = new ArrayList<>();
            if (missing.isEmpty()) {
                add.add(new Outcome(f[0], f[0]));
            }
            for (Wanted w : missing) {
                add.add(new Outcome(w.testClass().getName(), w.method()));
            }
            for (Outcome o : add) {
                o.kind = f[2];
                o.type = f[3] == null ? "java.lang.Throwable" : f[3];
                o.message = f[4];
                o.detail = f[5];
                listener.results.add(o);
                System.out.printf(Locale.ROOT, "%-7s %s#%s%n", o.kind.toUpperCase(Locale.ROOT), o.className, o.name);
            }
        }
        if (!listener.containerFailures.isEmpty() && listener.afterEach != null) {
            listener.afterEach.run();
        }
    }

    static void writeReport(Path file, List<Outcome> results, double total, LocalDateTime started)
            throws IOException {
        Map<String, Integer> counts = new HashMap<>();
        for (Outcome o : results) {
            counts.merge(o.kind, 1, Integer::sum);
        }
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "localhost";
        }
        StringBuilder x = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        x.append(String.format(Locale.ROOT,
                "<testsuite name=\"OrderedPlatformRunner\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
                        + "skipped=\"%d\" time=\"%.3f\" timestamp=\"%s\" hostname=\"%s\">\n",
                results.size(), counts.getOrDefault("failure", 0), counts.getOrDefault("error", 0),
                counts.getOrDefault("skipped", 0), total,
                started.format(DateTimeFormatter.ISO_LOCAL_DATE_TIME), xml(host, true)));
        for (Outcome o : results) {
            x.append(String.format(Locale.ROOT, "  <testcase name=\"%s\" classname=\"%s\" time=\"%.3f\"",
                    xml(o.name, true), xml(o.className, true), o.seconds));
            if (o.kind.equals("passed")) {
                x.append("/>\n");
                continue;
            }
            String message = o.message == null ? "" : " message=\"" + xml(o.message, true) + "\"";
            if (o.kind.equals("skipped")) {
                x.append(">\n    <skipped").append(message).append("/>\n  </testcase>\n");
            } else {
                x.append(">\n    <").append(o.kind).append(message).append(" type=\"")
                        .append(xml(o.type, true)).append("\">").append(xml(o.detail, false))
                        .append("</").append(o.kind).append(">\n  </testcase>\n");
            }
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
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Escaped for XML 1.0 text or an attribute; characters XML cannot hold are dropped. */
    static String xml(String s, boolean attribute) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length() + 16);
        s.codePoints().forEach(cp -> {
            if (cp == '<') {
                b.append("&lt;");
            } else if (cp == '>') {
                b.append("&gt;");
            } else if (cp == '&') {
                b.append("&amp;");
            } else if (attribute && (cp == '"' || cp == '\n' || cp == '\t' || cp == '\r')) {
                b.append(cp == '"' ? "&quot;" : "&#" + cp + ";");
            } else if (cp == '\t' || cp == '\n' || cp == '\r' || (cp >= 0x20 && cp <= 0xD7FF)
                    || (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF)) {
                b.appendCodePoint(cp);
            }
        });
        return b.toString();
    }
}
