/** serviceMessage: the service's own words, in every error style it may use. */
import { serviceMessage } from '../../nodes/shared/transport/serviceMessage';

describe('serviceMessage: every error style the service may use', () => {
	it.each([
		[
			{ success: false, errors: [{ field: 'title', message: 'must not be empty' }] },
			'title: must not be empty',
		],
		[
			{ name: 'Not Found', message: 'Installation 9 not found', code: 0, status: 404 },
			'Installation 9 not found',
		],
		[[{ field: 'templateIds', message: 'unknown template 7' }], 'templateIds: unknown template 7'],
		[{ message: 'pause the installation first' }, 'pause the installation first'],
		['Service down for maintenance', 'Service down for maintenance'],
		[{ errors: { title: ['is required'] } }, 'title: is required'],
		[{ success: false }, 'The service reported a failure without a message'],
		[{ success: 'false' }, 'The service reported a failure without a message'],
		[{ success: 0, errors: ['text'] }, 'text'],
		[{ success: false, data: { message: 'nested' } }, 'nested'],
	])('%j → %s', (body, expected) => {
		expect(serviceMessage(body)).toBe(expected);
	});

	it('has nothing to say for empty bodies', () => {
		expect(serviceMessage(undefined)).toBeUndefined();
		expect(serviceMessage('')).toBeUndefined();
	});
});
