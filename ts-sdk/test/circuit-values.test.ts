/**
 * The value shapes of `session.evaluate`, and the option checks of both job kinds without I/O: the
 * SDK passes options through and the core's bridge checks them (`checkAes` / `checkCircuit`), in
 * both runtimes, so these tests hold the Rust checks to the SDK's typed errors.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CircuitError, ConfigError, loadRuntime, NotAvailableError, parseCircuit } from "../src/index.js";
import { outputValue, valueBits } from "../src/session/circuits.js";
import { aesJob, evaluateJob, prepareJob } from "../src/session/job-options.js";
import type { CoreRuntime, JobBridge } from "../src/session/runtime.js";
import type { ParsedCircuit } from "../src/session/session-types.js";

/** Bristol text: two 16-bit inputs; outputs their XOR (16 bits) and the AND of their low 3 bits. */
function twoBytesText(): string {
  const gates = [
    ...Array.from({ length: 16 }, (_, i) => `2 1 ${i} ${16 + i} ${32 + i} XOR`),
    ...Array.from({ length: 3 }, (_, i) => `2 1 ${i} ${16 + i} ${48 + i} AND`),
  ];
  return `19 51\n2 16 16\n2 16 3\n\n${gates.join("\n")}\n`;
}

/** Bits as the core takes them (one byte, 0 or 1, per bit) as the booleans of the public API. */
const bools = (bits: Uint8Array): boolean[] => Array.from(bits, (b) => b === 1);

describe("circuit values", () => {
  it("bigint, bytes and bit arrays describe the same wires", () => {
    // 0x1234: bit i of the integer on wire i; bytes big-endian, as the Bristol AES circuits read them.
    const fromInt = valueBits(0x1234n, 16, 0);
    expect(valueBits(Uint8Array.of(0x12, 0x34), 16, 0)).toEqual(fromInt);
    expect(valueBits("1234", 16, 0)).toEqual(fromInt);
    expect(valueBits(bools(fromInt), 16, 0)).toEqual(fromInt);
    expect(bools(fromInt.slice(0, 4))).toEqual([false, false, true, false]);
    const out = outputValue(bools(fromInt));
    expect(out).toMatchObject({ value: 0x1234n, hex: "1234" });
    expect(outputValue([true, false, true])).toEqual({ bits: [true, false, true], value: 5n });
  });

  it("integers convert bit by bit at every width, both ways", () => {
    // Against the definition (bit i of the integer on wire i), with widths that are not whole bytes.
    let x = 0x9e3779b97f4a7c15f39cc0605cedc834n;
    for (let width = 0; width <= 140; width++) {
      x = (x * 6364136223846793005n + 1442695040888963407n) % (1n << 128n);
      const value = width === 0 ? 0n : (x * x) % (1n << BigInt(width));
      const bits = valueBits(value, width, 0);
      expect(bools(bits)).toEqual(Array.from({ length: width }, (_, i) => ((value >> BigInt(i)) & 1n) === 1n));
      const out = outputValue(bools(bits));
      expect(out.value).toBe(value);
      if (width % 8 === 0) {
        expect(out.hex).toBe(width === 0 ? "" : value.toString(16).padStart(width / 4, "0"));
        expect(valueBits(out.bytes!, width, 0)).toEqual(bits);
      } else {
        expect(out.hex).toBeUndefined();
      }
    }
  });

  it("ill-sized values name the input", () => {
    for (const bad of [0x10000n, -1n, [true], Uint8Array.of(1), "zz"] as const) {
      const error = (() => {
        try {
          valueBits(bad as never, 16, 3);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).field).toBe("inputs[3]");
    }
  });
});

describe("parsed circuits", () => {
  it("a circuit parsed again gives the same facts, in arrays of its own; a bad one fails every time", async () => {
    const text = "1 4\n3 1 1 1\n1 1\n\n2 1 0 1 3 AND\n";
    const first = await parseCircuit(text);
    first.inputWidths[0] = 99;
    first.outputWidths.push(7);
    const again = await parseCircuit(text);
    expect(again).toEqual({ ...first, inputWidths: [1, 1, 1], outputWidths: [1] });
    expect(again.andGates).toBe(1);
    const bad = "1 4\n3 1 1 1\n1 1\n\n2 1 0 9 3 AND\n";
    for (let i = 0; i < 2; i++) {
      await expect(parseCircuit(bad)).rejects.toBeInstanceOf(CircuitError);
    }
    // Many distinct circuits: each still parses to its own facts (the remembered ones are bounded).
    for (let n = 1; n <= 20; n++) {
      const wide = await parseCircuit(`1 ${n + 2}\n2 ${n} 1\n1 1\n\n2 1 0 ${n} ${n + 1} AND\n`);
      expect(wide.inputWidths).toEqual([n, 1]);
    }
    expect((await parseCircuit(text)).inputWidths).toEqual([1, 1, 1]);
  });
});

describe.each(["wasm", "native"] as const)("job options (%s checks)", (name) => {
  let runtime: CoreRuntime;
  let TWO_BYTES: ParsedCircuit;
  let THREE_INPUTS: ParsedCircuit;
  beforeAll(async () => {
    runtime = await loadRuntime(name);
    TWO_BYTES = await parseCircuit(twoBytesText());
    THREE_INPUTS = await parseCircuit("1 4\n3 1 1 1\n1 1\n\n2 1 0 1 3 AND\n");
  });
  /** The bridge of party `slot` of `parties`, for its checks only. */
  const at = (slot: number, parties: number): JobBridge => runtime.createBridge(slot, parties, () => {});
  const key = "00".repeat(16);
  const D = { protocol: "tinytable", preprocessing: "dealer" } as const;
  /** The field of the ConfigError `f` throws (undefined if it does not throw). */
  const field = (f: () => unknown): string | undefined => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return (e as ConfigError).field;
    }
    return undefined;
  };

  it("passes the options through and reports what runs, with the core's defaults", () => {
    expect(aesJob(at(0, 3), { ...D, key })).toMatchObject({
      spec: { protocol: "tinytable", preprocessing: "dealer" },
      input: { keyShare: new Uint8Array(16) },
      labels: { protocol: "tinytable", variant: "circuit", security: "semi-honest", preprocessing: "dealer" },
    });
    // MAESTRO's defaults: the malicious LUT-16 S-box; no preprocessing option.
    const maestro = aesJob(at(2, 3), { plaintext: key });
    expect(maestro.labels).toEqual({ protocol: "maestro", variant: "lut16", security: "malicious" });
    expect(maestro.spec).toEqual({});
    expect(aesJob(at(0, 3), { variant: "lut256-33", security: "semi-honest", key }).labels).toMatchObject({ variant: "lut256-33", security: "semi-honest" });
    expect(aesJob(at(0, 3), { variant: "lut256", security: "malicious", key }).labels).toMatchObject({ variant: "lut256", security: "malicious" });
    expect(aesJob(at(0, 2), { protocol: "tinytable", key }).labels).toMatchObject({ preprocessing: "ot", variant: "circuit" });
    expect(aesJob(at(1, 2), { protocol: "tinytable", security: "malicious", macBits: 32, plaintext: key }).spec).toMatchObject({ macBits: 32 });
    expect(aesJob(at(2, 3), { ...D, path: "sbox-tables", security: "malicious" }).labels).toMatchObject({ variant: "sbox-tables", security: "malicious" });
  });

  it("names the option at fault, and what is not available", () => {
    // TinyTable's circuit path runs every key size both ways; the S-box-table path AES-128 both ways.
    expect(aesJob(at(0, 3), { ...D, keyBits: 256, direction: "decrypt", key: "00".repeat(32) }).spec).toMatchObject({ keyBits: 256, direction: "decrypt" });
    const sbox = { ...D, path: "sbox-tables" } as const;
    expect(() => aesJob(at(0, 3), { ...sbox, keyBits: 256, key: "00".repeat(32) })).toThrow(expect.objectContaining({ field: "keyBits" }));
    expect(() => aesJob(at(0, 3), { ...sbox, keyBits: 256, key: "00".repeat(32) })).toThrow(NotAvailableError);
    expect(aesJob(at(0, 3), { ...sbox, direction: "decrypt", key }).spec).toMatchObject({ path: "sbox-tables", direction: "decrypt" });
    // @ts-expect-error variant is MAESTRO's option
    expect(() => aesJob(at(2, 3), { ...D, variant: "lut16" })).toThrow(expect.objectContaining({ field: "variant" }));
    expect(() => aesJob(at(0, 3), { direction: "sideways" as never, key })).toThrow(expect.objectContaining({ field: "direction" }));
    expect(() => aesJob(at(0, 2), D)).toThrow(/3 session members/);
    expect(() => aesJob(at(0, 3), { protocol: "garbled" as never, key })).toThrow(expect.objectContaining({ field: "protocol" }));
    expect(() => aesJob(at(0, 3), null as never)).toThrow(expect.objectContaining({ field: "options" }));
  });

  it("checks this party's inputs against its roles", () => {
    expect(field(() => aesJob(at(0, 3), {}))).toBe("key");
    expect(field(() => aesJob(at(0, 3), { key: "0011" }))).toBe("key");
    expect(field(() => aesJob(at(1, 3), { key: "zz" }))).toBe("key");
    expect(field(() => aesJob(at(2, 3), { plaintext: "00", blocks: 1 }))).toBe("plaintext");
    expect(field(() => aesJob(at(2, 3), { key, plaintext: key }))).toBe("key");
    expect(field(() => aesJob(at(1, 3), { key, reveal: [5] }))).toBe("reveal");
    expect(field(() => aesJob(at(1, 3), { key, blocks: 0 }))).toBe("blocks");
    expect(field(() => aesJob(at(1, 3), { key, keyHolders: [1, 0] }))).toBe("keyHolders");
    // The dealer of a two-party protocol holds no inputs.
    expect(field(() => aesJob(at(2, 3), { ...D, key }))).toBe("key");
  });

  it("defaults TinyTable to OT preprocessing in a session of two, with no dealer slot", () => {
    const sizes = [() => aesJob(at(0, 3), { protocol: "tinytable", key }), () => evaluateJob(at(0, 3), TWO_BYTES, { inputs: { 0: 1n } })];
    for (const wrongSize of sizes) {
      expect(wrongSize).toThrow(/needs 2 session members/);
      expect(wrongSize).toThrow(expect.objectContaining({ field: "parties" }));
    }
    expect(() => evaluateJob(at(0, 2), TWO_BYTES, { preprocessing: "dealer" })).toThrow(/needs 3 session members/);
    // The S-box tables over OT: two members, no dealer.
    expect(aesJob(at(0, 2), { protocol: "tinytable", path: "sbox-tables", key }).labels).toMatchObject({ variant: "sbox-tables", preprocessing: "ot" });
    expect(() => aesJob(at(0, 2), { protocol: "tinytable", preprocessing: "trusted" as never, key })).toThrow(
      expect.objectContaining({ field: "preprocessing" }),
    );
    // @ts-expect-error preprocessing is not MAESTRO's option
    expect(() => aesJob(at(0, 3), { preprocessing: "ot", key })).toThrow(/not an option of protocol 'maestro'/);
    const job = evaluateJob(at(1, 2), TWO_BYTES, { inputs: { 1: 7n } });
    expect(job).toMatchObject({ labels: { protocol: "tinytable", preprocessing: "ot", security: "semi-honest" } });
    expect((job.input as { values: Array<Uint8Array | undefined> }).values[1]!.slice(0, 4)).toEqual(Uint8Array.of(1, 1, 1, 0));
  });

  it("checks MiniMac's options and names its limits", () => {
    const M = { protocol: "minimac", preprocessing: "dealer" } as const;
    expect(aesJob(at(0, 3), { ...M, key }).labels).toEqual({ protocol: "minimac", variant: "rs256-120-matrix", security: "malicious", preprocessing: "dealer" });
    expect(aesJob(at(2, 3), { ...M, code: "rs255-85-fft" }).labels).toMatchObject({ variant: "rs255-85-fft" });
    expect(evaluateJob(at(0, 3), TWO_BYTES, { ...M, inputs: { 0: 1n } })).toMatchObject({ labels: { protocol: "minimac" } });
    // OT preprocessing (the default) between the two parties, in a session of two.
    expect(aesJob(at(0, 2), { protocol: "minimac", key }).labels).toEqual({ protocol: "minimac", variant: "rs256-120-matrix", security: "malicious", preprocessing: "ot" });
    expect(evaluateJob(at(1, 2), TWO_BYTES, { protocol: "minimac", inputs: { 1: 2n } }).labels).toMatchObject({ preprocessing: "ot" });
    // Over OT every member computes: three members take MAESTRO's roles by default, nine are too many.
    expect(aesJob(at(0, 3), { protocol: "minimac", key }).labels).toMatchObject({ protocol: "minimac", preprocessing: "ot" });
    expect(() => aesJob(at(0, 9), { protocol: "minimac", key })).toThrow(expect.objectContaining({ field: "parties" }));
    // @ts-expect-error MiniMac is malicious only
    expect(() => aesJob(at(0, 3), { ...M, security: "semi-honest", key })).toThrow(expect.objectContaining({ field: "security" }));
    // @ts-expect-error variant is MAESTRO's option
    expect(() => aesJob(at(0, 3), { ...M, variant: "lut16", key })).toThrow(expect.objectContaining({ field: "variant" }));
    expect(() => aesJob(at(0, 2), { ...M, key })).toThrow(expect.objectContaining({ field: "parties" }));
    // @ts-expect-error code is MiniMac's option
    expect(() => aesJob(at(0, 2), { protocol: "tinytable", code: "rs255-85-fft", key })).toThrow(/not an option of protocol 'tinytable'/);
  });

  it("checks Coral's options (the parties over OT, or a trusted dealer) and names its limits", () => {
    expect(aesJob(at(0, 2), { protocol: "coral", key }).labels).toEqual({ protocol: "coral", variant: "rmfe-14-42", security: "malicious", preprocessing: "ot" });
    expect(evaluateJob(at(0, 2), TWO_BYTES, { protocol: "coral", inputs: { 0: 1n } }).labels).toMatchObject({ protocol: "coral", preprocessing: "ot" });
    expect(aesJob(at(0, 3), { protocol: "coral", preprocessing: "dealer", key }).labels).toMatchObject({ preprocessing: "dealer" });
    expect(aesJob(at(2, 3), { protocol: "coral", preprocessing: "dealer" }).labels).toMatchObject({ protocol: "coral" });
    expect(() => aesJob(at(0, 2), { protocol: "coral", preprocessing: "dealer", key })).toThrow(expect.objectContaining({ field: "parties" }));
    // Over OT every member computes: three members take MAESTRO's roles by default, nine are too many,
    // and two-party roles in a session of three name neither one party nor all of them.
    expect(aesJob(at(0, 3), { protocol: "coral", key }).labels).toMatchObject({ protocol: "coral", preprocessing: "ot" });
    expect(() => aesJob(at(0, 9), { protocol: "coral", key })).toThrow(expect.objectContaining({ field: "parties" }));
    expect(() => aesJob(at(0, 3), { protocol: "coral", key, keyHolders: [0], plaintextOwner: 1, reveal: [0, 1] })).toThrow(
      expect.objectContaining({ field: "reveal" }),
    );
    // @ts-expect-error Coral is malicious only
    expect(() => aesJob(at(0, 2), { protocol: "coral", security: "semi-honest", key })).toThrow(expect.objectContaining({ field: "security" }));
    // @ts-expect-error code is MiniMac's option
    expect(() => aesJob(at(0, 2), { protocol: "coral", code: "rs255-85-fft", key })).toThrow(expect.objectContaining({ field: "code" }));
  });

  it("checks preparations and usePrepared against the session's (empty) prepared material", () => {
    const prepare = prepareJob(at(0, 2), { job: "aes", protocol: "tinytable", blocks: 4, security: "malicious" }, undefined);
    expect(prepare.labels).toEqual({ protocol: "tinytable", variant: "circuit", security: "malicious", preprocessing: "ot" });
    expect(prepare.spec).toEqual({ job: "aes", protocol: "tinytable", blocks: 4, security: "malicious" });
    expect(prepareJob(at(1, 2), { job: "evaluate", circuit: TWO_BYTES, evaluations: 3 }, TWO_BYTES).labels).toMatchObject({ protocol: "tinytable", preprocessing: "ot" });
    expect(() => prepareJob(at(0, 2), { job: "evaluate", circuit: TWO_BYTES, evaluations: 0 }, TWO_BYTES)).toThrow(expect.objectContaining({ field: "evaluations" }));
    expect(() => prepareJob(at(0, 3), { job: "aes", protocol: "tinytable", preprocessing: "dealer" }, undefined)).toThrow(NotAvailableError);
    expect(() => prepareJob(at(0, 3), { job: "aes", protocol: "maestro" } as never, undefined)).toThrow(expect.objectContaining({ field: "protocol" }));
    expect(() => prepareJob(at(0, 2), { job: "aes", protocol: "tinytable", usePrepared: true } as never, undefined)).toThrow(expect.objectContaining({ field: "usePrepared" }));

    // Nothing prepared: `usePrepared: true` names what is missing; absent or false runs inline.
    const tiny = { protocol: "tinytable", key } as const;
    expect(() => aesJob(at(0, 2), { ...tiny, usePrepared: true })).toThrow(/usePrepared.*no prepared material is left/);
    expect(aesJob(at(0, 2), tiny).labels.prepared).toBeUndefined();
    expect(aesJob(at(0, 2), { ...tiny, usePrepared: false }).spec).toMatchObject({ prepared: "never" });
    expect(() => aesJob(at(0, 2), { ...tiny, usePrepared: "yes" as never })).toThrow(expect.objectContaining({ field: "usePrepared" }));
    expect(() => evaluateJob(at(0, 2), TWO_BYTES, { inputs: { 0: 1n }, usePrepared: true })).toThrow(expect.objectContaining({ field: "usePrepared" }));
    // MAESTRO makes its material inside each job; MiniMac and Coral consume prepared units.
    expect(() => aesJob(at(0, 3), { protocol: "maestro", key, usePrepared: true } as never)).toThrow(/usePrepared.*MAESTRO makes its material inside each job/);
    expect(() => aesJob(at(0, 2), { protocol: "minimac", key, usePrepared: true })).toThrow(/usePrepared.*no prepared material is left/);
    expect(() => evaluateJob(at(0, 2), TWO_BYTES, { protocol: "coral", inputs: { 0: 1n }, usePrepared: true })).toThrow(
      expect.objectContaining({ field: "usePrepared" }),
    );
  });

  it("checks malicious TinyTable's macBits and the S-box-table roles", () => {
    expect(field(() => aesJob(at(0, 3), { ...D, security: "paranoid" as never, key }))).toBe("security");
    expect(field(() => aesJob(at(0, 3), { ...D, security: "malicious", macBits: 48 as never, key }))).toBe("macBits");
    // @ts-expect-error macBits needs security: 'malicious'
    expect(field(() => aesJob(at(0, 3), { ...D, macBits: 32, key }))).toBe("macBits");
    // @ts-expect-error macBits is TinyTable's option
    expect(field(() => aesJob(at(0, 3), { macBits: 64, key }))).toBe("macBits");
    expect(aesJob(at(0, 3), { ...D, path: "sbox-tables", keyHolders: [0, 1], key }).labels).toMatchObject({ protocol: "tinytable" });
    expect(field(() => aesJob(at(1, 3), { ...D, path: "sbox-tables", keyHolders: [1], key }))).toBe("plaintextOwner");
    expect(() => aesJob(at(0, 3), { ...D, path: "sbox-tables", security: "malicious", macBits: 32, key })).toThrow(NotAvailableError);
    const evalD = { preprocessing: "dealer" } as const;
    expect(evaluateJob(at(2, 3), TWO_BYTES, { ...evalD, security: "malicious", macBits: 32 }).labels).toMatchObject({ security: "malicious" });
    expect(field(() => evaluateJob(at(2, 3), TWO_BYTES, { ...evalD, security: "malicious", macBits: 16 as never }))).toBe("macBits");
    expect(field(() => evaluateJob(at(2, 3), TWO_BYTES, { ...evalD, security: "byzantine" as never }))).toBe("security");
  });

  it("checks circuit options and input values against the circuit", () => {
    const job = evaluateJob(at(1, 3), TWO_BYTES, { preprocessing: "dealer", inputs: { 1: 7n }, reveal: ["both", 0] });
    expect(job.spec).toMatchObject({ reveal: ["both", 0], circuit: TWO_BYTES.text });
    expect(evaluateJob(at(2, 3), TWO_BYTES, { preprocessing: "dealer" }).input).toEqual({ values: [] });
    expect(field(() => evaluateJob(at(1, 2), TWO_BYTES, { reveal: ["both"] }))).toBe("reveal");
    expect(field(() => evaluateJob(at(1, 2), TWO_BYTES, { reveal: ["both", 2 as never] }))).toBe("reveal");
    expect(field(() => evaluateJob(at(1, 2), TWO_BYTES, { inputOwners: [0] }))).toBe("inputOwners");
    expect(() => evaluateJob(at(0, 2), TWO_BYTES, { inputs: { 5: 1n } })).toThrow(/input index 5/);
    expect(() => evaluateJob(at(0, 2), TWO_BYTES, {})).toThrow(expect.objectContaining({ field: "inputs[0]", message: expect.stringMatching(/must pass it/) }));
    expect(field(() => evaluateJob(at(0, 2), TWO_BYTES, { inputs: { 0: 1n, 1: 2n } }))).toBe("inputs[1]");
    expect(field(() => evaluateJob(at(2, 3), TWO_BYTES, { preprocessing: "dealer", inputs: { 0: 1n } }))).toBe("inputs[0]");
    expect(field(() => evaluateJob(at(1, 2), THREE_INPUTS, {}))).toBe("inputOwners");
    expect(evaluateJob(at(1, 2), THREE_INPUTS, { inputOwners: [0, 1, 0], inputs: { 1: 1n }, reveal: [1] }).labels.protocol).toBe("tinytable");
    const badText = { ...TWO_BYTES, text: "2 1\nnot bristol" };
    expect(() => evaluateJob(at(0, 2), badText, { inputs: { 0: 1n } })).toThrow(CircuitError);
  });
});
