/** This test file's database and Redis prefix (set by test/fileSetup.ts before the file runs). */
export interface FileContext {
  databaseUrl: string;
  redisPrefix: string;
}

let current: FileContext | null = null;

export function setFileContext(context: FileContext): void {
  current = context;
}

export function fileContext(): FileContext {
  if (!current) throw new Error('no test database: test/fileSetup.ts must be in the project setupFiles');
  return current;
}
