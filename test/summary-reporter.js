/** Adds one plain closing line to jest's own output: "N passed, N failed, N skipped". */
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const { numPassedTests, numFailedTests, numPendingTests } = results;
		process.stdout.write(
			`${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests} skipped\n`,
		);
	}
}

module.exports = SummaryReporter;
