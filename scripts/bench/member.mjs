/**
 * Runs one session member of a benchmark as a child process. Resolves with the last line the child
 * prints, parsed as JSON; rejects if it exits with an error or prints no JSON.
 */
import { spawn } from 'node:child_process';

/** `command argv…` with `env` added to this process's environment; `label` names it in errors. */
export function runProcess(command, argv, env, label) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    // 'close', not 'exit': only 'close' comes after the child's stdout has been read to its end.
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${label} exited ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()));
      } catch {
        reject(new Error(`${label} printed no result: ${out}`));
      }
    });
  });
}

/**
 * A Node `script` with the member's invite (and `env`) in its environment. CHORUS_BENCH_NODE_FLAGS
 * adds Node flags (for example `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile every party).
 */
export function runMember(script, invite, env, label = 'member') {
  const flags = (process.env.CHORUS_BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  return runProcess(process.execPath, [...flags, script], { ...env, CHORUS_INVITE: JSON.stringify(invite) }, `${label} ${invite.slot}`);
}
