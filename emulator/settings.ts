/** The emulator's settings as control calls change them: each checked before it is taken. */
import { DEFAULT_VARIANTS, VARIANT_CHOICES } from './render';
import type { ErrorStyle, PartnerSettings, Variants } from './types';

/** Every error style, in the order the tests walk them (the default first). */
export const ERROR_STYLES: readonly ErrorStyle[] = [
	'errors',
	'yii',
	'message',
	'text',
	'strings',
	'fieldMap',
	'yiiData',
	'errorObject',
];

/** Throws on a setting the partner does not have, or an unknown Basic style. */
export function checkPartner(settings: Partial<PartnerSettings>, defaults: PartnerSettings): void {
	for (const key of Object.keys(settings)) {
		if (!(key in defaults))
			throw new Error(`unknown partner setting "${key}"; use ${Object.keys(defaults).join(', ')}`);
	}
	if (
		settings.acceptStyles &&
		!['any', 'raw', 'usernamePassword'].includes(settings.acceptStyles)
	) {
		throw new Error('acceptStyles must be "any", "raw" or "usernamePassword"');
	}
}

export function checkErrorStyle(style: ErrorStyle): void {
	if (!ERROR_STYLES.includes(style))
		throw new Error(`unknown error style "${style}"; use one of ${ERROR_STYLES.join(', ')}`);
}

/** Throws on an unknown variant or a value it cannot take. */
export function checkVariants(v: Partial<Variants>): void {
	for (const [key, value] of Object.entries(v)) {
		if (!(key in DEFAULT_VARIANTS))
			throw new Error(`unknown variant "${key}"; use ${Object.keys(DEFAULT_VARIANTS).join(', ')}`);
		const allowed = VARIANT_CHOICES[key as keyof Variants] as readonly unknown[];
		if (!allowed.includes(value))
			throw new Error(
				`variant "${key}" cannot be ${JSON.stringify(value)}; use ${allowed.map((a) => JSON.stringify(a)).join(', ')}`,
			);
	}
}
