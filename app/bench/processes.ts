import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A server the benchmark started as its own process (netinv or the floor). */
export class ServerProcess {
  private constructor(readonly child: ChildProcess, readonly baseUrl: string) {}

  /**
   * Starts `node <script> <args>` with `env` and waits until `readyPath` answers (any status):
   * the server is then listening and has finished its start-up work.
   */
  static async start(script: string, args: string[], env: Record<string, string>, port: number, readyPath: string): Promise<ServerProcess> {
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${path.basename(script)} exited with ${child.exitCode}: ${stderr}`);
      try {
        await fetch(baseUrl + readyPath);
        return new ServerProcess(child, baseUrl);
      } catch {
        if (Date.now() > deadline) throw new Error(`${path.basename(script)} did not start: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  get pid(): number {
    return this.child.pid as number;
  }

  /** Resident memory in MB of the process and of its children (cluster workers). */
  memory(): { rssMb: number; peakMb: number; processes: number } {
    const pids = [this.pid, ...childPids(this.pid)];
    const figures = pids.map(statusOf).filter((s): s is ProcStatus => s !== null);
    // With workers, the figure that counts is the largest process, not the sum.
    const serving = figures.length > 1 ? figures.slice(1) : figures;
    return {
      rssMb: Math.max(...serving.map((s) => s.rssKb)) / 1024,
      peakMb: Math.max(...serving.map((s) => s.peakKb)) / 1024,
      processes: serving.length,
    };
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

interface ProcStatus {
  rssKb: number;
  peakKb: number;
}

function statusOf(pid: number): ProcStatus | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
    return { rssKb: kb('VmRSS'), peakKb: kb('VmHWM') };
  } catch {
    return null;
  }
}

function childPids(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}
