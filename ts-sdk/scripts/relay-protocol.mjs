// Copies the relay's wire-protocol module (`server/src/protocol.ts`, the one source of the relay
// protocol's constants and message shapes) into the SDK as `src/transport/relay-protocol.ts`, so both
// packages compile the same definitions and the published SDK still needs no relay package.
// The copy is a build product (gitignored); the SDK's build, bundle and typecheck run this first.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const sdk = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(sdk, '..', 'server', 'src', 'protocol.ts');
const target = join(sdk, 'src', 'transport', 'relay-protocol.ts');

const text = readFileSync(source, 'utf8');
if (/^\s*(import|export\s+\*\s+from|export\s+\{[^}]*\}\s+from)\b/m.test(text)) {
  throw new Error(`${source} must stay free of imports: the SDK compiles a copy of it`);
}
const header = '// GENERATED from server/src/protocol.ts by ts-sdk/scripts/relay-protocol.mjs; edit that file.\n';
const copy = header + text;
if (!existsSync(target) || readFileSync(target, 'utf8') !== copy) writeFileSync(target, copy);
