package boards;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.TimeUnit;

import org.junit.Before;
import org.junit.Rule;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;
import org.junit.rules.TestWatcher;
import org.junit.rules.Timeout;
import org.junit.runner.Description;
import org.junit.runners.model.TestTimedOutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Common setup of the boards tests: one headless Chromium per JVM, shared by every
 * test of the run, created on first use and quit when the JVM exits. Every test
 * starts with cleared cookies on the application's root page.
 */
public abstract class BaseTest {

    public static final String ADMIN_EMAIL = "john@phoenix-trello.com";
    public static final String ADMIN_PASSWORD = "12345678";

    public static final String JANE_FIRST_NAME = "Jane";
    public static final String JANE_LAST_NAME = "Doe";
    public static final String JANE_EMAIL = "jane@boards.test";
    public static final String JANE_PASSWORD = "janepass1";

    public static final String BASE_URL = baseUrl();

    private static WebDriver sharedDriver;
    private static Path userDataDir;
    private static boolean shutdownHookAdded;

    /** Safety net only: a scenario test takes about a second; this catches a hung browser. */
    public static final int TEST_TIMEOUT_SECONDS = 60;

    protected WebDriver driver;

    /**
     * A test that hangs (a renderer that stopped answering leaves ChromeDriver blocked)
     * fails after TEST_TIMEOUT_SECONDS, and the browser is thrown away so that the next
     * test gets a fresh one instead of queueing behind the blocked command.
     */
    @Rule
    public final TestRule hungBrowserGuard = RuleChain
            .outerRule(new TestWatcher() {
                @Override
                protected void failed(Throwable e, Description description) {
                    if (e instanceof TestTimedOutException) {
                        killDriver();
                    }
                }
            })
            .around(Timeout.builder().withTimeout(TEST_TIMEOUT_SECONDS, TimeUnit.SECONDS).build());

    @Before
    public void setUp() {
        driver = driver();
        // Cookies can only be deleted for the current domain: be on the application first.
        if (!driver.getCurrentUrl().startsWith(BASE_URL)) {
            driver.get(BASE_URL + "/");
        }
        driver.manage().deleteAllCookies();
        driver.get(BASE_URL + "/");
    }

    /** BOARDS_URL if set, else http://127.0.0.1:(BOARDS_PORT_BASE (18080) + the worker (0)):
     *  APP_WORKER, which untangle.json sets, else UNTANGLE_WORKER, which every untangle run gets. */
    static String baseUrl() {
        String url = System.getenv("BOARDS_URL");
        if (url == null || url.isEmpty()) {
            String worker = System.getenv("APP_WORKER");
            if (worker == null || worker.isEmpty()) {
                worker = System.getenv("UNTANGLE_WORKER");
            }
            int w = (worker == null || worker.isEmpty()) ? 0 : Integer.parseInt(worker.trim());
            url = "http://127.0.0.1:" + (Integer.parseInt(System.getenv().getOrDefault("BOARDS_PORT_BASE", "18080").trim()) + w);
        }
        while (url.endsWith("/")) {
            url = url.substring(0, url.length() - 1);
        }
        return url;
    }

    public static synchronized WebDriver driver() {
        if (sharedDriver == null) {
            System.setProperty("webdriver.chrome.driver", "/usr/bin/chromedriver");
            System.setProperty("webdriver.chrome.silentOutput", "true");
            try {
                userDataDir = Files.createTempDirectory("boards-chromium-");
            } catch (IOException e) {
                throw new IllegalStateException("cannot create a Chromium profile directory", e);
            }
            ChromeOptions options = new ChromeOptions();
            // $EXAMPLE_BROWSER: another Chromium binary (ci/test: examples/headless-shell)
            String browser = System.getenv("EXAMPLE_BROWSER");
            options.setBinary(browser != null && !browser.isEmpty() ? browser : "/usr/bin/chromium");
            options.addArguments(
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--no-first-run",
                    "--disable-dev-shm-usage",
                    "--user-data-dir=" + userDataDir);
            sharedDriver = new ChromeDriver(options);
            sharedDriver.manage().timeouts().implicitlyWait(0, TimeUnit.SECONDS);
            sharedDriver.manage().timeouts().pageLoadTimeout(60, TimeUnit.SECONDS);
            if (!shutdownHookAdded) {
                Runtime.getRuntime().addShutdownHook(new Thread(BaseTest::quitDriver, "quit-chromium"));
                shutdownHookAdded = true;
            }
        }
        return sharedDriver;
    }

    /**
     * Quits the shared browser (if any) and removes its profile; safe to call twice.
     * Bounded: if ChromeDriver does not answer within 10 s, the browser is killed.
     */
    public static synchronized void quitDriver() {
        if (sharedDriver != null) {
            final WebDriver quitting = sharedDriver;
            Thread quitter = new Thread(() -> {
                try {
                    quitting.quit();
                } catch (RuntimeException e) {
                    System.err.println("warning: could not quit Chromium: " + e);
                }
            }, "quit-chromium-driver");
            quitter.setDaemon(true);
            quitter.start();
            try {
                quitter.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (quitter.isAlive()) {
                System.err.println("warning: ChromeDriver did not quit within 10 s; killing the browser");
                killBrowserProcesses();
            }
            sharedDriver = null;
        }
        if (userDataDir != null) {
            deleteTree(userDataDir);
            userDataDir = null;
        }
    }

    /** Drops a browser that stopped answering: kills it; the next test starts a new one. */
    static synchronized void killDriver() {
        System.err.println("warning: a test timed out; restarting Chromium for the next test");
        killBrowserProcesses();
        sharedDriver = null;
        if (userDataDir != null) {
            deleteTree(userDataDir);
            userDataDir = null;
        }
    }

    /** Kills the chromedriver and Chromium processes this JVM started (its descendants only). */
    private static void killBrowserProcesses() {
        ProcessHandle.current().descendants()
                .filter(p -> p.info().command().map(c -> c.contains("chrom")).orElse(false))
                .forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * Chromium may still be writing its profile for a moment after quit() returns:
     * retry for up to about 2 s; a leftover temporary profile is harmless.
     */
    private static void deleteTree(Path root) {
        for (int attempt = 0; attempt < 10 && Files.exists(root); attempt++) {
            if (attempt > 0) {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            try {
                Files.walkFileTree(root, new SimpleFileVisitor<Path>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        try {
                            Files.deleteIfExists(file);
                        } catch (IOException e) {
                            // next attempt
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException exc) {
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult postVisitDirectory(Path dir, IOException exc) {
                        try {
                            Files.deleteIfExists(dir);
                        } catch (IOException e) {
                            // not empty yet: next attempt
                        }
                        return FileVisitResult.CONTINUE;
                    }
                });
            } catch (IOException e) {
                // next attempt
            }
        }
    }
}
