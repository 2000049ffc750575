// A small check collector: each check prints one line as it passes or fails, and the run ends
// with the plain `N passed, N failed` line that CI reads.

export class Checks {
	constructor() {
		this.passed = 0;
		this.failed = 0;
		this.failures = [];
	}

	/** Record one condition; `detail` (string or function) is printed only when it fails. */
	ok(name, condition, detail) {
		if (condition) {
			this.passed += 1;
			console.log(`  ✓ ${name}`);
		} else {
			this.failed += 1;
			const text = typeof detail === 'function' ? detail() : detail;
			this.failures.push(name);
			console.log(
				`  ✗ ${name}${text ? `\n      ${String(text).split('\n').join('\n      ')}` : ''}`,
			);
		}
		return Boolean(condition);
	}

	equal(name, actual, expected) {
		const same = JSON.stringify(actual) === JSON.stringify(expected);
		return this.ok(
			name,
			same,
			() => `expected ${JSON.stringify(expected)}\n got      ${JSON.stringify(actual)}`,
		);
	}

	/**
	 * A step whose later checks depend on it: a thrown error is recorded as a failure and
	 * re-thrown so the caller can skip what follows.
	 */
	async step(name, fn) {
		try {
			const value = await fn();
			this.ok(name, true);
			return value;
		} catch (error) {
			this.ok(name, false, error instanceof Error ? error.message : String(error));
			error.recorded = true;
			throw error;
		}
	}

	/** Run a group; a failure inside (already recorded by `step`, or not) does not stop the run. */
	async group(title, fn) {
		console.log(`\n${title}`);
		try {
			await fn();
		} catch (error) {
			if (!error?.recorded) this.ok(`${title}: finished`, false, error?.stack ?? String(error));
			else console.log(`    (rest of "${title}" skipped)`);
		}
	}

	/** The closing line CI reads, after the names of what failed (a CI log may keep only its tail). */
	summary() {
		const failed = this.failures.map((name) => `  ✗ ${name}\n`).join('');
		return `${failed ? `failed:\n${failed}` : ''}${this.passed} passed, ${this.failed} failed`;
	}
}
