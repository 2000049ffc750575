// n8n-core starts a 60-second interval (its SSH client manager) the first time a node runs, and never
// unrefs it; stop it after each test file so jest can exit without --forceExit.
import { Container } from '@n8n/di';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

afterAll(() => {
	if (Container.has(SSHClientsManager)) {
		clearInterval((Container.get(SSHClientsManager) as unknown as { cleanupTimer: NodeJS.Timeout }).cleanupTimer);
	}
});
