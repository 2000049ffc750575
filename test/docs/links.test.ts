/**
 * Every relative link in the docs reaches a file, and a link to a heading reaches a heading that
 * exists: moving or renaming a guide or a heading cannot leave a dead link behind.
 */
import { existsSync } from 'fs';
import { dirname, join, normalize } from 'path';

import { anchorsOf, linksOf, markdownFiles, read, ROOT } from './markdown';

describe('the links in the docs', () => {
	const anchors = new Map<string, Set<string>>();
	const anchorsIn = (file: string) => {
		if (!anchors.has(file)) anchors.set(file, anchorsOf(read(file)));
		return anchors.get(file)!;
	};

	test.each(markdownFiles())('%s: every relative link resolves', (file) => {
		const dead = linksOf(read(file))
			.filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
			.flatMap(({ line, target }) => {
				const [path, anchor] = target.split('#', 2);
				const linked = path === '' ? file : normalize(join(dirname(file), decodeURI(path)));
				if (!existsSync(join(ROOT, linked))) return [`${file}:${line}: no file ${linked}`];
				if (anchor === undefined || !linked.endsWith('.md')) return [];
				return anchorsIn(linked).has(anchor) ? [] : [`${file}:${line}: no heading #${anchor} in ${linked}`];
			});
		expect(dead).toEqual([]);
	});
});
