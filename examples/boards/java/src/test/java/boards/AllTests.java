package boards;

import org.junit.AfterClass;
import org.junit.runner.RunWith;
import org.junit.runners.Suite;

/** The boards scenario in its original order. */
@RunWith(Suite.class)
@Suite.SuiteClasses({
    AddUserTest.class,
    LoginUserTest.class,
    AddBoardTest.class,
    AddWorkBoardTest.class,
    ShareBoardTest.class,
    AddListToBoardTest.class,
    RenameListTest.class,
    ViewSharedBoardTest.class,
    CountBoardsTest.class,
    RenameBoardTest.class,
    DeleteBoardTest.class,
    LogoutUserTest.class,
    ViewBoardsTest.class,
    AddDuplicateUserTest.class
})
public class AllTests {

    @AfterClass
    public static void quitBrowser() {
        BaseTest.quitDriver();
    }
}
