/**
 * Runs one session member of an SDK benchmark as a Node child process: `script` with the member's
 * invite (and `env`) in its environment. Resolves with the last line the child prints, parsed as
 * JSON; rejects if it exits with an error or prints no JSON.
 */
import { spawn } from 'node:child_process';

export function runMember(script, invite, env, label = 'member') {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], {
      env: { ...process.env, ...env, CHORUS_INVITE: JSON.stringify(invite) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    // 'close', not 'exit': only 'close' comes after the child's stdout has been read to its end.
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${label} ${invite.slot} exited ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()));
      } catch {
        reject(new Error(`${label} ${invite.slot} printed no result: ${out}`));
      }
    });
  });
}
