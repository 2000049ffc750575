// n8n-core writes its instance settings under N8N_USER_FOLDER: keep that in a temp folder, never
// $HOME.
import '../harness/n8nUserFolder';
