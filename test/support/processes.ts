import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { waitFor } from './wait';

export interface LogLine {
  message?: string;
  level?: string;
  research_id?: string | null;
  job_id?: string | null;
  request_id?: string | null;
  [key: string]: unknown;
}

export interface NodeProcess {
  readonly name: string;
  readonly child: ChildProcess;
  readonly lines: LogLine[];
  readonly stderr: string[];
  /** Resolves with the exit code (null when killed by a signal) and signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
  /** True when this process started or resumed the run (took its lock). */
  holds(researchId: string): boolean;
}

const children = new Set<ChildProcess>();

/** Keeps a child process on the list killAllProcesses() ends. */
export function trackChild(child: ChildProcess): void {
  children.add(child);
  child.once('exit', () => children.delete(child));
}

/** Starts `node <script>` with only the given environment (plus PATH), collecting its JSON log lines. */
export function spawnNodeProcess(name: string, script: string, env: Record<string, string>): NodeProcess {
  return spawnLoggedProcess(name, process.execPath, [script], env);
}

/** Starts any command as spawnNodeProcess does (e.g. `npm start` as a process manager would). */
export function spawnLoggedProcess(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string } = {},
): NodeProcess {
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: options.cwd,
  });
  children.add(child);
  const lines: LogLine[] = [];
  const stderr: string[] = [];
  let buffer = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      try {
        lines.push(JSON.parse(line) as LogLine);
      } catch {
        lines.push({ message: line });
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  let running = true;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      running = false;
      children.delete(child);
      resolve({ code, signal });
    });
  });
  return {
    name,
    child,
    lines,
    stderr,
    exited,
    alive: () => running,
    holds: (researchId) =>
      lines.some(
        (l) =>
          l.research_id === researchId &&
          (l.message === 'research run started' || l.message === 'research run resumed'),
      ),
  };
}

export async function waitForLogLine(worker: NodeProcess, message: string, timeoutMs = 20_000): Promise<void> {
  await waitFor(
    `${worker.name} to start`,
    async () => {
      if (!worker.alive()) throw new Error(`${worker.name} exited: ${worker.stderr.join('')}`);
      return worker.lines.some((l) => l.message === message);
    },
    timeoutMs,
    50,
  );
}

/** SIGKILLs every child process still alive (afterAll, whatever happened). */
export async function killAllProcesses(): Promise<void> {
  const pending = [...children].map(
    (child) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  );
  await Promise.all(pending);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The pids of a process's direct children (Linux /proc). */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name in field 2 is parenthesised and may hold spaces; the parent pid follows its `)`.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // The process ended while we listed it.
    }
  }
  return children;
}

/** Whether a process with this pid still exists (a zombie counts as gone). */
export function processExists(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
