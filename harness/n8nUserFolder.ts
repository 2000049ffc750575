// Import first: n8n-core writes its instance settings (an encryption key) under N8N_USER_FOLDER,
// by default the home folder. Scripts and tests keep that in a temp folder, with a throwaway key.
import { randomBytes } from 'crypto';
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-albato-'));
process.env.N8N_ENCRYPTION_KEY ??= randomBytes(24).toString('hex');
