import fs from 'node:fs';
import path from 'node:path';

/** Held while a process has the embedded database open. */
export interface EmbeddedLock {
  release(): void;
}

export class EmbeddedDatabaseBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly holderRole: string,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by a running service (pid ${pid}, ${holderRole}). ` +
        'Stop the service first, or run the service with DATABASE_URL so the CLI can work beside it.',
    );
    this.name = 'EmbeddedDatabaseBusyError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `<dataDir>/service.lock` (pid and role), refusing when a live process holds it. PGlite opens the
 * data directory in a single process; a second writer would corrupt it, so the CLI refuses while the
 * service runs, and a second service refuses to start. A lock left by a dead process is taken over.
 */
export function acquireEmbeddedLock(dataDir: string, role: string): EmbeddedLock {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'service.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify({ pid: process.pid, role }), { flag: 'wx', mode: 0o600 });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          const holder = JSON.parse(fs.readFileSync(file, 'utf8')) as { pid: number };
          if (holder.pid === process.pid) fs.unlinkSync(file);
        } catch {
          // Already gone.
        }
      };
      process.once('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder: { pid?: number; role?: string } = {};
      try {
        holder = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof holder;
      } catch {
        // Torn or empty lock file: treat as stale.
      }
      if (holder.pid && holder.pid !== process.pid && alive(holder.pid)) {
        throw new EmbeddedDatabaseBusyError(dataDir, holder.pid, holder.role ?? 'unknown');
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${file}`);
}
