import org.testng.ITestResult;
import org.testng.TestListenerAdapter;

/* A TestNG listener printing Class#method for every test TestNG runs, or skips because
 * a test it depends on failed (the fixtures' tests fail on their null driver: only what
 * TestNG selects, in which order, counts). */
public class ListTestNG extends TestListenerAdapter {
    @Override
    public void onTestStart(ITestResult r) {
        System.out.println(id(r));
    }

    @Override
    public void onTestSkipped(ITestResult r) {
        if (r.getStartMillis() == r.getEndMillis() || r.getThrowable() != null)
            System.out.println(id(r) + " (skipped)");
    }

    private static String id(ITestResult r) {
        return r.getTestClass().getName() + "#" + r.getMethod().getMethodName();
    }
}
