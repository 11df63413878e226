/**
 * Ends the run with one plain line, `N passed, M failed` (", K skipped" when any), which CI reads.
 * A test file that could not run at all (syntax error, failing beforeAll) counts as a failure,
 * so a run that executed nothing never looks green.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    const parts = [`${results.numPassedTests} passed`, `${failed} failed`];
    if (skipped > 0) parts.push(`${skipped} skipped`);
    process.stdout.write(`\n${parts.join(', ')}\n`);
  }
}
module.exports = SummaryReporter;
