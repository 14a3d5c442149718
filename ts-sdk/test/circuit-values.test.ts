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
  it("builds TinyTable and MAESTRO specs with their defaults", () => {
    expect(aesJob({ protocol: "tinytable", key: "00".repeat(16) }, 0, 3)).toMatchObject({
      method: "runTinyTableAes",
      spec: { path: "circuit", security: "semi-honest", keyHolders: [0], plaintextOwner: 1, revealTo: [0, 1] },
    });
    expect(aesJob({ variant: "lut16", plaintext: "00".repeat(16) }, 2, 3)).toMatchObject({
      method: "runMaestroAes",
      spec: { variant: "lut16", keyHolders: [0, 1], plaintextOwner: 2, revealTo: [0, 1, 2] },
    });
    expect(() => aesJob({ protocol: "tinytable", keyBits: 256, key: "00".repeat(32) }, 0, 3)).toThrow(ConfigError);
    expect(() => aesJob({ protocol: "tinytable", variant: "lut16" }, 2, 3)).toThrow(/variant/);
    expect(() => aesJob({ variant: "lut256", security: "malicious", key: "00".repeat(16) }, 0, 3)).toThrow(NotAvailableError);
    expect(aesJob({ variant: "lut256-33", security: "semi-honest", key: "00".repeat(16) }, 0, 3).spec).toMatchObject({ variant: "lut256-33", security: "semi-honest" });
    expect(() => aesJob({ direction: "sideways" as never, key: "00".repeat(16) }, 0, 3)).toThrow(/direction/);
    expect(() => aesJob({ protocol: "tinytable", direction: "decrypt", key: "00".repeat(16) }, 0, 3)).toThrow(NotAvailableError);
    // MAESTRO's defaults: the malicious LUT-16 S-box, encryption; TinyTable's: semi-honest.
    expect(aesJob({ key: "00".repeat(16) }, 0, 3)).toMatchObject({
      variant: "lut16",
      security: "malicious",
      spec: { variant: "lut16", security: "malicious", direction: "encrypt" },
    });
    expect(aesJob({ security: "semi-honest", key: "00".repeat(16) }, 0, 3).spec).toMatchObject({ variant: "lut16", security: "semi-honest" });
    expect(aesJob({ protocol: "tinytable", key: "00".repeat(16) }, 0, 3)).toMatchObject({ security: "semi-honest", spec: { security: "semi-honest" } });
    expect(aesJob({ security: "malicious", variant: "lut16", key: "00".repeat(16) }, 0, 3).spec).toMatchObject({ variant: "lut16", security: "malicious" });
    expect(() => aesJob({ protocol: "tinytable" }, 0, 2)).toThrow(/session of 3/);
  });

  it("passes malicious TinyTable with macBits and rejects bad security, macBits and S-box-table roles", () => {
    const key = "00".repeat(16);
    expect(aesJob({ protocol: "tinytable", security: "malicious", key }, 0, 3).spec).toMatchObject({ security: "malicious", macBits: 64 });
    expect(aesJob({ protocol: "tinytable", security: "malicious", macBits: 32, key }, 0, 3).spec).toMatchObject({ macBits: 32 });
    expect(aesJob({ protocol: "tinytable", path: "sbox-tables", security: "malicious" }, 2, 3).spec).toMatchObject({
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
    expect(field(() => aesJob({ protocol: "tinytable", security: "paranoid" as never, key }, 0, 3))).toBe("security");
    expect(field(() => aesJob({ protocol: "tinytable", security: "malicious", macBits: 48 as never, key }, 0, 3))).toBe("macBits");
    expect(field(() => aesJob({ protocol: "tinytable", macBits: 32, key }, 0, 3))).toBe("macBits");
    expect(field(() => aesJob({ macBits: 64, key }, 0, 3))).toBe("macBits");
    expect(field(() => aesJob({ protocol: "tinytable", path: "sbox-tables", keyHolders: [0, 1], key }, 0, 3))).toBe("keyHolders");
    expect(field(() => aesJob({ protocol: "tinytable", path: "sbox-tables", keyHolders: [1], key }, 1, 3))).toBe("plaintextOwner");
    expect(() => aesJob({ protocol: "tinytable", path: "sbox-tables", security: "malicious", macBits: 32, key }, 0, 3)).toThrow(NotAvailableError);
    expect(evaluateJob(TWO_BYTES, { security: "malicious", macBits: 32 }, 2, 3).spec).toMatchObject({ security: "malicious", macBits: 32 });
    expect(field(() => evaluateJob(TWO_BYTES, { security: "malicious", macBits: 16 as never }, 2, 3))).toBe("macBits");
    expect(field(() => evaluateJob(TWO_BYTES, { security: "byzantine" as never }, 2, 3))).toBe("security");
  });

  it("checks circuit options against the circuit", () => {
    const job = evaluateJob(TWO_BYTES, { inputs: { 1: 7n }, reveal: ["both", 0] }, 1, 3);
    expect(job.spec).toMatchObject({ inputOwners: [0, 1], reveal: [2, 0] });
    expect((job.input as { values: Uint8Array[] }).values[0]!.slice(0, 4)).toEqual(Uint8Array.of(1, 1, 1, 0));
    expect(evaluateJob(TWO_BYTES, {}, 2, 3).input).toEqual({});
    expect(() => evaluateJob(TWO_BYTES, { reveal: ["both"] }, 2, 3)).toThrow(CircuitError);
    expect(() => evaluateJob(TWO_BYTES, { inputOwners: [0] }, 2, 3)).toThrow(CircuitError);
    expect(() => evaluateJob(TWO_BYTES, { inputs: { 5: 1n } }, 0, 3)).toThrow(/input index 5/);
    expect(() => evaluateJob(TWO_BYTES, {}, 0, 3)).toThrow(/must pass it/);
    expect(() => evaluateJob({ ...TWO_BYTES, inputWidths: [1, 1, 1] }, {}, 2, 3)).toThrow(/inputOwners/);
  });
});
