"""suite_json.py: reading `untangle tests --json --actions` back into whole tests.

The JSON names a test's shared setup and teardown by index into its top-level "hooks"
(docs/commands.md); the scripts that compare actions want every action a test runs, in
order, as the suite model has them.
"""


def test_actions(doc, test):
    """Every action `test` runs: its setup hooks', its own, its teardown hooks'. A hook's
    action gets the hook's file and "setup": True, as in the test's own list."""
    def hooked(refs):
        for i in refs:
            hook = doc["hooks"][i]
            for a in hook["actions"]:
                yield dict(a, file=hook["file"], setup=True)
    if "actions" not in test:
        raise KeyError(f"{test['id']}: no actions (untangle tests --json without --actions)")
    return [*hooked(test["setup"]), *test["actions"], *hooked(test["teardown"])]
