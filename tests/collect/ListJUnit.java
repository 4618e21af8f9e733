import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;

/* Prints Class#method for every test JUnitCore starts running the given classes (the
 * fixtures' tests fail on their null driver: only what runs, in which order, counts). */
public class ListJUnit {
    public static void main(String[] args) throws Exception {
        JUnitCore core = new JUnitCore();
        core.addListener(new RunListener() {
            @Override
            public void testStarted(Description d) {
                System.out.println(d.getClassName() + "#" + d.getMethodName());
            }

            @Override
            public void testIgnored(Description d) {
                System.out.println("ignored " + d.getClassName() + "#" + d.getMethodName());
            }
        });
        Class<?>[] classes = new Class<?>[args.length];
        for (int i = 0; i < args.length; i++)
            classes[i] = Class.forName(args[i]);
        core.run(classes);
        System.exit(0);
    }
}
