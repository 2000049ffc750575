/**
 * n8n's editor renders descriptions, hints and notices as HTML through its `v-n8n-html` directive:
 * sanitize-html with the options below (n8n's design-system, directives/n8n-html.ts). A tag it does
 * not allow is discarded, so a placeholder such as `<master token>` vanished from the credential's
 * option descriptions. Every text the editor renders as HTML must read the same after that.
 */
import sanitize from 'sanitize-html';
import type {
	ICredentialType,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
} from 'n8n-workflow';

import { AlbatoPartnerApi } from '../../../credentials/AlbatoPartnerApi.credentials';
import { AlbatoSolutionsApi } from '../../../credentials/AlbatoSolutionsApi.credentials';
import { AlbatoSolutions } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { AlbatoSolutionsTrigger } from '../../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';

/** As n8n's editor renders a description (design-system, directives/n8n-html.ts). */
const renderAsN8n = (html: string) =>
	sanitize(html, {
		allowedTags: sanitize.defaults.allowedTags.concat(['img', 'input']),
		allowedAttributes: {
			...sanitize.defaults.allowedAttributes,
			input: ['type', 'id', 'checked'],
			code: ['class'],
			a: sanitize.defaults.allowedAttributes.a.concat(['data-*']),
			div: ['class'],
		},
	});

/** The text a reader sees: intended markup (a link, code) dropped, entities decoded. */
const INTENDED_TAGS = /<\/?(a|b|br|code|em|i|strong)\b[^>]*>/g;
const visibleText = (html: string) =>
	html
		.replace(INTENDED_TAGS, '')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&amp;/g, '&');

type Option = INodeProperties | INodePropertyOptions | INodePropertyCollection;

/** Every text the editor renders as HTML, with where it is. */
function htmlTexts(list: Option[], path: string, out: Array<[string, string]> = []) {
	for (const entry of list) {
		const here = `${path} › ${'displayName' in entry ? entry.displayName : entry.name}`;
		if ('description' in entry && typeof entry.description === 'string')
			out.push([here, entry.description]);
		if ('hint' in entry && typeof entry.hint === 'string') out.push([`${here} (hint)`, entry.hint]);
		if ('type' in entry && entry.type === 'notice') out.push([here, entry.displayName]);
		if ('options' in entry && Array.isArray(entry.options)) htmlTexts(entry.options, here, out);
		if ('values' in entry && Array.isArray(entry.values)) htmlTexts(entry.values, here, out);
	}
	return out;
}

const credentials: ICredentialType[] = [new AlbatoPartnerApi(), new AlbatoSolutionsApi()];
const texts = [
	...credentials.flatMap((type) => htmlTexts(type.properties, type.displayName)),
	...[new AlbatoSolutions(), new AlbatoSolutionsTrigger()].flatMap((node) =>
		htmlTexts(node.description.properties, node.description.displayName),
	),
];

describe('texts the editor renders as HTML', () => {
	it('the renderer is the one that loses a placeholder in angle brackets', () => {
		expect(visibleText(renderAsN8n('Authorization: Bearer <master token>'))).toBe(
			'Authorization: Bearer ',
		);
	});

	it('finds the credential option descriptions and many node texts', () => {
		expect(
			texts.filter(([where]) => where.startsWith('Albato Partner API')).length,
		).toBeGreaterThan(8);
		expect(texts.length).toBeGreaterThan(200);
	});

	it.each(texts)('%s reads the same in the editor', (_where, text) => {
		expect(visibleText(renderAsN8n(text))).toBe(visibleText(text));
	});

	it("the token-form choices show the token's place", () => {
		const partner = new AlbatoPartnerApi().properties.find((p) => p.name === 'headerForm');
		const shown = (partner?.options as INodePropertyOptions[]).map((option) =>
			visibleText(renderAsN8n(option.description ?? '')),
		);
		expect(shown).toEqual(
			expect.arrayContaining([
				expect.stringContaining('Authorization: Basic base64("‹master token›:")'),
				expect.stringContaining('Authorization: Basic ‹master token›'),
				'Authorization: Bearer ‹master token›',
			]),
		);
	});
});

/** The longest option label the editor's dropdowns show whole (n8n cuts longer ones). */
const OPTION_LABEL_MAX = 36;

function optionNames(list: Option[], path: string, out: Array<[string, string]> = []) {
	for (const entry of list) {
		const here = `${path} › ${'displayName' in entry ? entry.displayName : entry.name}`;
		if ('value' in entry && typeof entry.name === 'string') out.push([here, entry.name]);
		if ('options' in entry && Array.isArray(entry.options)) optionNames(entry.options, here, out);
		if ('values' in entry && Array.isArray(entry.values)) optionNames(entry.values, here, out);
	}
	return out;
}

describe('option labels', () => {
	const labels = [
		...credentials.flatMap((type) => optionNames(type.properties, type.displayName)),
		...[new AlbatoSolutions(), new AlbatoSolutionsTrigger()].flatMap((node) =>
			optionNames(node.description.properties, node.description.displayName),
		),
	];

	it('finds the credential choices', () => {
		expect(labels.map(([, name]) => name)).toContain('Basic Username');
	});

	it(`fit: at most ${OPTION_LABEL_MAX} characters`, () => {
		expect(labels.filter(([, name]) => name.length > OPTION_LABEL_MAX)).toEqual([]);
	});
});
