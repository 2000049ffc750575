// The build steps `n8n-node build` does not cover. It compiles nodes/ and credentials/ (tsconfig.json)
// and copies every .png/.svg of the repository into dist/, docs/screenshots too. This copies what it
// leaves out, the codex files (*.node.json), and removes from dist/ what is not part of the package.
const { rmSync, readdirSync } = require('node:fs');
const path = require('node:path');
const { dest, series, src } = require('gulp');

const PACKAGE_FOLDERS = ['credentials', 'nodes'];

function pruneDist(done) {
	for (const entry of readdirSync('dist')) {
		if (!PACKAGE_FOLDERS.includes(entry))
			rmSync(path.join('dist', entry), { recursive: true, force: true });
	}
	done();
}

function copyCodex() {
	return src('nodes/**/*.node.json', { base: '.' }).pipe(dest('dist'));
}

exports.build = series(pruneDist, copyCodex);
