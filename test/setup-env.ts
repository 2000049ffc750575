// n8n-core writes its instance settings under N8N_USER_FOLDER: keep that in a temp folder, never $HOME.
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'n8n-albato-test-'));
}
