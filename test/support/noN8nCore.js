// The `unit` jest project maps n8n-core here: a unit test that loads it (directly or through the
// harness) fails with this message instead of running without the harness's setup.
throw new Error(
	'This test loads n8n-core: remove its file from UNIT in jest.config.js so that it runs in the n8n-core project',
);
