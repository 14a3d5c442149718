/** The value shapes of `session.evaluate` and the option checks of both job kinds, without I/O. */
import { describe, expect, it } from "vitest";
import { CircuitError, ConfigError, NotAvailableError } from "../src/index.js";
import { outputValue, valueBits } from "../src/circuits.js";
import { aesJob, evaluateJob } from "../src/job-options.js";
import type { ParsedCircuit } from "../src/session-types.js";

const TWO_BYTES: ParsedCircuit = {
  text: "",
  inputWidths: [16, 16],
  outputWidths: [16, 3],
  andGates: 0,
  xorGates: 0,
  invGates: 0,
  andDepth: 0,
  wires: 0,
};

describe("circuit values", () => {
  it("bigint, bytes and bit arrays describe the same wires", () => {
    // 0x1234: bit i of the integer on wire i; bytes big-endian, as the Bristol AES circuits read them.
    const fromInt = valueBits(0x1234n, 16, 0);
    expect(valueBits(Uint8Array.of(0x12, 0x34), 16, 0)).toEqual(fromInt);
    expect(valueBits("1234", 16, 0)).toEqual(fromInt);
    expect(valueBits(fromInt, 16, 0)).toEqual(fromInt);
    expect(fromInt.slice(0, 4)).toEqual([false, false, true, false]);
    const out = outputValue(fromInt);
    expect(out).toMatchObject({ value: 0x1234n, hex: "1234" });
    expect(outputValue([true, false, true])).toEqual({ bits: [true, false, true], value: 5n });
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

describe("job options", () => {
  const D = { protocol: "tinytable", preprocessing: "dealer" } as const;
  it("builds TinyTable and MAESTRO specs with their defaults", () => {
    expect(aesJob({ ...D, key: "00".repeat(16) }, 0, 3)).toMatchObject({
      method: "runAes",
      preprocessing: "dealer",
      spec: { protocol: "tinytable", path: "circuit", preprocessing: "dealer", security: "semi-honest", keyHolders: [0], plaintextOwner: 1, revealTo: [0, 1] },
    });
    expect(aesJob({ variant: "lut16", plaintext: "00".repeat(16) }, 2, 3)).toMatchObject({
      method: "runAes",
      spec: { protocol: "maestro", variant: "lut16", keyHolders: [0, 1], plaintextOwner: 2, revealTo: [0, 1, 2] },
    });
    // @ts-expect-error TinyTable is AES-128 only
    expect(() => aesJob({ ...D, keyBits: 256, key: "00".repeat(32) }, 0, 3)).toThrow(ConfigError);
    // @ts-expect-error variant is MAESTRO's option
    expect(() => aesJob({ ...D, variant: "lut16" }, 2, 3)).toThrow(/variant/);
    expect(() => aesJob({ variant: "lut256", security: "malicious", key: "00".repeat(16) }, 0, 3)).toThrow(NotAvailableError);
    expect(aesJob({ variant: "lut256-33", security: "semi-honest", key: "00".repeat(16) }, 0, 3).spec).toMatchObject({ variant: "lut256-33", security: "semi-honest" });
    expect(() => aesJob({ direction: "sideways" as never, key: "00".repeat(16) }, 0, 3)).toThrow(/direction/);
    // @ts-expect-error TinyTable encrypts only
    expect(() => aesJob({ ...D, direction: "decrypt", key: "00".repeat(16) }, 0, 3)).toThrow(NotAvailableError);
    // MAESTRO's defaults: the malicious LUT-16 S-box, encryption; TinyTable's: semi-honest.
    expect(aesJob({ key: "00".repeat(16) }, 0, 3)).toMatchObject({
      variant: "lut16",
      security: "malicious",
      spec: { variant: "lut16", security: "malicious", direction: "encrypt" },
    });
    expect(aesJob({ security: "semi-honest", key: "00".repeat(16) }, 0, 3).spec).toMatchObject({ variant: "lut16", security: "semi-honest" });
    expect(aesJob({ ...D, key: "00".repeat(16) }, 0, 3)).toMatchObject({ security: "semi-honest", spec: { security: "semi-honest" } });
    expect(aesJob({ security: "malicious", variant: "lut16", key: "00".repeat(16) }, 0, 3).spec).toMatchObject({ variant: "lut16", security: "malicious" });
    expect(() => aesJob(D, 0, 2)).toThrow(/session of 3/);
  });

  it("defaults TinyTable to OT preprocessing in a session of two, with no dealer slot", () => {
    const key = "00".repeat(16);
    expect(aesJob({ protocol: "tinytable", key }, 0, 2)).toMatchObject({
      preprocessing: "ot",
      spec: { path: "circuit", preprocessing: "ot", keyHolders: [0], plaintextOwner: 1, revealTo: [0, 1] },
    });
    expect(aesJob({ protocol: "tinytable", preprocessing: "ot", security: "malicious", macBits: 32, plaintext: key }, 1, 2).spec).toMatchObject({
      preprocessing: "ot",
      macBits: 32,
    });
    const sizes = [() => aesJob({ protocol: "tinytable", key }, 0, 3), () => evaluateJob(TWO_BYTES, { inputs: { 0: 1n } }, 0, 3)];
    for (const wrongSize of sizes) {
      expect(wrongSize).toThrow(/session of 2 .*preprocessing: 'dealer'/);
      expect(wrongSize).toThrow(expect.objectContaining({ field: "parties" }));
    }
    expect(() => evaluateJob(TWO_BYTES, { preprocessing: "dealer" }, 0, 2)).toThrow(/session of 3/);
    // @ts-expect-error the S-box tables need the dealer
    const tablesOverOt = () => aesJob({ protocol: "tinytable", path: "sbox-tables", key }, 0, 2);
    expect(tablesOverOt).toThrow(NotAvailableError);
    expect(tablesOverOt).toThrow(expect.objectContaining({ field: "preprocessing" }));
    expect(() => aesJob({ protocol: "tinytable", preprocessing: "trusted" as never, key }, 0, 2)).toThrow(
      expect.objectContaining({ field: "preprocessing" }),
    );
    // @ts-expect-error preprocessing is TinyTable's option
    expect(() => aesJob({ preprocessing: "ot", key }, 0, 3)).toThrow(/TinyTable's option/);
    const job = evaluateJob(TWO_BYTES, { inputs: { 1: 7n } }, 1, 2);
    expect(job).toMatchObject({ preprocessing: "ot", spec: { preprocessing: "ot" } });
    // Without a dealer, party 2 does not exist: a 2-member session has slots 0 and 1 only.
    expect((job.input as { values: Uint8Array[] }).values).toHaveLength(1);
  });

  it("builds MiniMac specs for the same two bridge methods and names its limits", () => {
    const key = "00".repeat(16);
    const M = { protocol: "minimac", preprocessing: "dealer" } as const;
    expect(aesJob({ ...M, key }, 0, 3)).toMatchObject({
      method: "runAes",
      protocol: "minimac",
      variant: "rs256-120-matrix",
      security: "malicious",
      spec: { protocol: "minimac", code: "rs256-120-matrix", preprocessing: "dealer", keyHolders: [0], plaintextOwner: 1, revealTo: [0, 1] },
    });
    expect(aesJob({ ...M, code: "rs255-85-fft" }, 2, 3).spec).toMatchObject({ code: "rs255-85-fft" });
    expect(evaluateJob(TWO_BYTES, { ...M, inputs: { 0: 1n } }, 0, 3)).toMatchObject({
      method: "runCircuit",
      protocol: "minimac",
      spec: { protocol: "minimac", code: "rs256-120-matrix", preprocessing: "dealer", inputOwners: [0, 1], reveal: [2, 2] },
    });
    // @ts-expect-error MiniMac needs the dealer for now
    const overOt = () => aesJob({ protocol: "minimac", key }, 0, 2);
    expect(overOt).toThrow(NotAvailableError);
    expect(overOt).toThrow(expect.objectContaining({ field: "preprocessing" }));
    // @ts-expect-error MiniMac opens outputs to both parties
    expect(() => aesJob({ ...M, reveal: [0], key }, 0, 3)).toThrow(expect.objectContaining({ field: "reveal" }));
    expect(() => evaluateJob(TWO_BYTES, { ...M, reveal: [0, "both"], inputs: { 0: 1n } } as never, 0, 3)).toThrow(NotAvailableError);
    // @ts-expect-error MiniMac is malicious only
    expect(() => aesJob({ ...M, security: "semi-honest", key }, 0, 3)).toThrow(expect.objectContaining({ field: "security" }));
    // @ts-expect-error variant is MAESTRO's option
    expect(() => aesJob({ ...M, variant: "lut16", key }, 0, 3)).toThrow(expect.objectContaining({ field: "variant" }));
    expect(() => aesJob({ ...M, key }, 0, 2)).toThrow(expect.objectContaining({ field: "parties" }));
    // @ts-expect-error code is MiniMac's option
    expect(() => aesJob({ protocol: "tinytable", code: "rs255-85-fft", key }, 0, 2)).toThrow(/MiniMac's option/);
  });

  it("builds Coral specs (two parties over OT) and names its limits", () => {
    const key = "00".repeat(16);
    expect(aesJob({ protocol: "coral", key }, 0, 2)).toMatchObject({
      method: "runAes",
      protocol: "coral",
      variant: "rmfe-14-42",
      security: "malicious",
      preprocessing: "ot",
      spec: { protocol: "coral", preprocessing: "ot", keyHolders: [0], plaintextOwner: 1, revealTo: [0, 1] },
    });
    expect(evaluateJob(TWO_BYTES, { protocol: "coral", inputs: { 0: 1n } }, 0, 2)).toMatchObject({
      method: "runCircuit",
      protocol: "coral",
      spec: { protocol: "coral", preprocessing: "ot", inputOwners: [0, 1] },
    });
    // @ts-expect-error Coral's material comes from OT between the two parties
    expect(() => aesJob({ protocol: "coral", preprocessing: "dealer", key }, 0, 3)).toThrow(NotAvailableError);
    expect(() => aesJob({ protocol: "coral", key }, 0, 3)).toThrow(expect.objectContaining({ field: "parties" }));
    // @ts-expect-error Coral opens outputs to both parties
    expect(() => aesJob({ protocol: "coral", reveal: [1], key }, 0, 2)).toThrow(expect.objectContaining({ field: "reveal" }));
    // @ts-expect-error Coral is malicious only
    expect(() => aesJob({ protocol: "coral", security: "semi-honest", key }, 0, 2)).toThrow(expect.objectContaining({ field: "security" }));
    // @ts-expect-error code is MiniMac's option
    expect(() => aesJob({ protocol: "coral", code: "rs255-85-fft", key }, 0, 2)).toThrow(expect.objectContaining({ field: "code" }));
  });

  it("passes malicious TinyTable with macBits and rejects bad security, macBits and S-box-table roles", () => {
    const key = "00".repeat(16);
    expect(aesJob({ ...D, security: "malicious", key }, 0, 3).spec).toMatchObject({ security: "malicious", macBits: 64 });
    expect(aesJob({ ...D, security: "malicious", macBits: 32, key }, 0, 3).spec).toMatchObject({ macBits: 32 });
    expect(aesJob({ ...D, path: "sbox-tables", security: "malicious" }, 2, 3).spec).toMatchObject({
      path: "sbox-tables",
      security: "malicious",
      macBits: 64,
    });
    const field = (f: () => unknown): string | undefined => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as ConfigError).field;
      }
      return undefined;
    };
    expect(field(() => aesJob({ ...D, security: "paranoid" as never, key }, 0, 3))).toBe("security");
    expect(field(() => aesJob({ ...D, security: "malicious", macBits: 48 as never, key }, 0, 3))).toBe("macBits");
    // @ts-expect-error macBits needs security: 'malicious'
    expect(field(() => aesJob({ ...D, macBits: 32, key }, 0, 3))).toBe("macBits");
    // @ts-expect-error macBits is TinyTable's option
    expect(field(() => aesJob({ macBits: 64, key }, 0, 3))).toBe("macBits");
    expect(field(() => aesJob({ ...D, path: "sbox-tables", keyHolders: [0, 1], key }, 0, 3))).toBe("keyHolders");
    expect(field(() => aesJob({ ...D, path: "sbox-tables", keyHolders: [1], key }, 1, 3))).toBe("plaintextOwner");
    expect(() => aesJob({ ...D, path: "sbox-tables", security: "malicious", macBits: 32, key }, 0, 3)).toThrow(NotAvailableError);
    const evalD = { preprocessing: "dealer" } as const;
    expect(evaluateJob(TWO_BYTES, { ...evalD, security: "malicious", macBits: 32 }, 2, 3).spec).toMatchObject({ security: "malicious", macBits: 32 });
    expect(field(() => evaluateJob(TWO_BYTES, { ...evalD, security: "malicious", macBits: 16 as never }, 2, 3))).toBe("macBits");
    expect(field(() => evaluateJob(TWO_BYTES, { ...evalD, security: "byzantine" as never }, 2, 3))).toBe("security");
  });

  it("checks circuit options against the circuit", () => {
    const job = evaluateJob(TWO_BYTES, { preprocessing: "dealer", inputs: { 1: 7n }, reveal: ["both", 0] }, 1, 3);
    expect(job.spec).toMatchObject({ inputOwners: [0, 1], reveal: [2, 0] });
    expect((job.input as { values: Uint8Array[] }).values[0]!.slice(0, 4)).toEqual(Uint8Array.of(1, 1, 1, 0));
    expect(evaluateJob(TWO_BYTES, { preprocessing: "dealer" }, 2, 3).input).toEqual({});
    expect(() => evaluateJob(TWO_BYTES, { reveal: ["both"] }, 1, 2)).toThrow(CircuitError);
    expect(() => evaluateJob(TWO_BYTES, { inputOwners: [0] }, 1, 2)).toThrow(CircuitError);
    expect(() => evaluateJob(TWO_BYTES, { inputs: { 5: 1n } }, 0, 2)).toThrow(/input index 5/);
    expect(() => evaluateJob(TWO_BYTES, {}, 0, 2)).toThrow(/must pass it/);
    expect(() => evaluateJob({ ...TWO_BYTES, inputWidths: [1, 1, 1] }, {}, 1, 2)).toThrow(/inputOwners/);
  });
});
