// A mocha reporter for tests/collect/js/run, for every mocha from 5 on: each test mocha
// ends (passed, failed or pending), in order, as one JSON line on stdout at the end.
'use strict';

function OrderReporter(runner) {
  const ended = [];
  runner.on('test end', (t) => {
    ended.push({ file: t.file, title: t.fullTitle(), pending: !!t.isPending(), state: t.state });
  });
  runner.on('end', () => {
    process.stdout.write(ended.map((e) => JSON.stringify(e) + '\n').join(''));
  });
}

module.exports = OrderReporter;
