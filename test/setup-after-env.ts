// n8n-core starts a 60-second interval (its SSH client manager) the first time a node runs, and
// never unrefs it; release it after each test file so jest can exit without --forceExit.
import { releaseN8nResources } from '../harness';

afterAll(() => releaseN8nResources());
