import fs from 'node:fs';
import path from 'node:path';
import { Project, ts, type FileSystemHost, type RuntimeDirEntry } from 'ts-morph';

/**
 * Type-checks emitted files as if they lived in `<root>/generated/`, against the runtime's types and the
 * installed packages; what is on disk under `generated/` is ignored. Returns one message per diagnostic.
 */
export function typecheckGenerated(root: string, files: ReadonlyMap<string, string>): string[] {
  const generatedDir = path.join(root, 'generated');
  const overlay = new Map([...files].map(([file, text]) => [path.join(generatedDir, file), text]));
  const project = new Project({
    tsConfigFilePath: path.join(root, 'tsconfig.json'),
    skipAddingFilesFromTsConfig: true,
    fileSystem: new OverlayFileSystem(generatedDir, overlay),
  });
  const sourceFiles = [...overlay.keys()].filter((f) => f.endsWith('.ts')).map((f) => project.addSourceFileAtPath(f));
  return sourceFiles.flatMap((file) =>
    file.getPreEmitDiagnostics().map((d) => {
      const where = `${path.relative(root, file.getFilePath())}:${d.getLineNumber() ?? 0}`;
      const message = d.getMessageText();
      return `${where}: ${typeof message === 'string' ? message : ts.flattenDiagnosticMessageText(message.compilerObject, '\n')}`;
    }),
  );
}

/** The real file system, except that the generated folder holds exactly the overlay's files. */
class OverlayFileSystem implements FileSystemHost {
  constructor(
    private readonly dir: string,
    private readonly overlay: ReadonlyMap<string, string>,
  ) {}

  private inDir(p: string): boolean {
    return p === this.dir || p.startsWith(`${this.dir}${path.sep}`);
  }

  isCaseSensitive(): boolean {
    return true;
  }
  readFileSync(filePath: string): string {
    if (this.inDir(filePath)) {
      const text = this.overlay.get(filePath);
      if (text === undefined) throw Object.assign(new Error(`ENOENT: ${filePath}`), { code: 'ENOENT' });
      return text;
    }
    return fs.readFileSync(filePath, 'utf8');
  }
  readFile(filePath: string): Promise<string> {
    return Promise.resolve(this.readFileSync(filePath));
  }
  fileExistsSync(filePath: string): boolean {
    if (this.inDir(filePath)) return this.overlay.has(filePath);
    try {
      return fs.statSync(filePath).isFile();
    } catch {
      return false;
    }
  }
  fileExists(filePath: string): Promise<boolean> {
    return Promise.resolve(this.fileExistsSync(filePath));
  }
  directoryExistsSync(dirPath: string): boolean {
    if (this.inDir(dirPath)) return [...this.overlay.keys()].some((f) => f.startsWith(`${dirPath}${path.sep}`));
    try {
      return fs.statSync(dirPath).isDirectory();
    } catch {
      return false;
    }
  }
  directoryExists(dirPath: string): Promise<boolean> {
    return Promise.resolve(this.directoryExistsSync(dirPath));
  }
  readDirSync(dirPath: string): RuntimeDirEntry[] {
    if (this.inDir(dirPath)) {
      const names = new Map<string, boolean>();
      for (const file of this.overlay.keys()) {
        if (!file.startsWith(`${dirPath}${path.sep}`)) continue;
        const [first, ...rest] = file.slice(dirPath.length + 1).split(path.sep);
        names.set(first!, rest.length > 0);
      }
      return [...names].map(([name, isDirectory]) => ({
        name: path.join(dirPath, name),
        isFile: !isDirectory,
        isDirectory,
        isSymlink: false,
      }));
    }
    return fs.readdirSync(dirPath, { withFileTypes: true }).map((e) => ({
      name: path.join(dirPath, e.name),
      isFile: e.isFile(),
      isDirectory: e.isDirectory(),
      isSymlink: e.isSymbolicLink(),
    }));
  }
  realpathSync(p: string): string {
    return this.inDir(p) ? p : fs.realpathSync(p);
  }
  getCurrentDirectory(): string {
    return process.cwd();
  }
  glob(): Promise<string[]> {
    return Promise.resolve([]);
  }
  globSync(): string[] {
    return [];
  }
  private readOnly(): never {
    throw new Error('the type check does not write files');
  }
  delete(): Promise<void> {
    return this.readOnly();
  }
  deleteSync(): void {
    this.readOnly();
  }
  writeFile(): Promise<void> {
    return this.readOnly();
  }
  writeFileSync(): void {
    this.readOnly();
  }
  mkdir(): Promise<void> {
    return this.readOnly();
  }
  mkdirSync(): void {
    this.readOnly();
  }
  move(): Promise<void> {
    return this.readOnly();
  }
  moveSync(): void {
    this.readOnly();
  }
  copy(): Promise<void> {
    return this.readOnly();
  }
  copySync(): void {
    this.readOnly();
  }
}
