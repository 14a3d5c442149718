//! Bristol Fashion text format: parser and writer.
//!
//! Format (Archer, Bogdanov, Lindell, Orsini, Smart, Tap et al., "'Bristol Fashion' MPC Circuits",
//! <https://nigelsmart.github.io/MPC-Circuits/>, as used by SCALE-MAMBA, MP-SPDZ and emp-toolkit):
//! - line `ngates nwires`;
//! - line `niv n_1 .. n_niv`: the number of input values and the bit width of each;
//! - line `nov m_1 .. m_nov`: the number of output values and the bit width of each;
//! - one line per gate, `nin nout in_1 .. in_nin out_1 .. out_nout OP`, in topological order, with
//!   `OP` one of `XOR` (2 1), `AND` (2 1), `INV` (1 1), `EQ` (1 1, the input token is the constant
//!   0 or 1 assigned to the output wire), `EQW` (1 1, wire copy) and `MAND` (`2k k a_1..a_k b_1..b_k
//!   o_1..o_k`: `o_i = a_i & b_i`, the "extended" format). `NOT` is accepted as a synonym of `INV`.
//!
//! The first wires are the input values in order, the last wires the output values in order. Blank
//! lines are ignored anywhere. Every malformed input yields a [`CircuitError::Parse`] with the line
//! number; the parser never panics and allocates memory bounded by the text length and
//! [`MAX_WIRES`]. `MAND` gates become individual [`AndGate`]s, and the writer emits basic
//! Bristol Fashion (one `AND` line per AND gate) in layer order.

use super::error::{CircuitError, ParseProblem};
use super::repr::{total_width, AndGate, Circuit, Gate, LinearGate, WireTracker, MAX_WIRES};
use std::fmt::Write;

/// Longest token quoted back in an error message.
const MAX_QUOTED: usize = 32;

pub(crate) fn quote(token: &str) -> String {
    token.chars().take(MAX_QUOTED).collect()
}

pub(crate) fn number(token: &str, what: &'static str) -> Result<u64, ParseProblem> {
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseProblem::NotANumber { what, token: quote(token) });
    }
    token.parse::<u64>().map_err(|_| ParseProblem::TooLarge { what, value: u64::MAX, max: u64::MAX })
}

fn bounded(token: &str, what: &'static str, max: u64) -> Result<u64, ParseProblem> {
    let value = number(token, what)?;
    if value > max {
        return Err(ParseProblem::TooLarge { what, value, max });
    }
    Ok(value)
}

/// Walks the non-blank lines, keeping the current line's tokens in one reused buffer, and the number
/// of the last line read (so "end of input" is reported as the line after it).
pub(crate) struct Lines<'a> {
    inner: std::iter::Enumerate<std::str::Lines<'a>>,
    pub(crate) last: usize,
    pub(crate) tokens: Vec<&'a str>,
}

impl<'a> Lines<'a> {
    /// The lines of `text`, none read yet.
    pub(crate) fn new(text: &'a str) -> Self {
        Lines { inner: text.lines().enumerate(), last: 0, tokens: Vec::new() }
    }

    /// Moves to the next non-blank line and returns its 1-based number; its tokens are in `tokens`.
    fn advance(&mut self) -> Option<usize> {
        for (index, line) in self.inner.by_ref() {
            self.last = index + 1;
            self.tokens.clear();
            self.tokens.extend(line.split_ascii_whitespace());
            if !self.tokens.is_empty() {
                return Some(index + 1);
            }
        }
        None
    }
}

/// Parses an input or output declaration line `n w_1 .. w_n`.
fn widths(tokens: &[&str], what: &'static str) -> Result<Vec<u32>, ParseProblem> {
    let count = number(tokens[0], what)?;
    let found = tokens.len() as u64 - 1;
    if count != found {
        return Err(ParseProblem::TokenCount { what, expected: count.saturating_add(1), found: found + 1 });
    }
    tokens[1..].iter().map(|t| bounded(t, "a value's bit width", MAX_WIRES).map(|w| w as u32)).collect()
}

/// Parses one gate line into gates (several for MAND) after checking its wires with `tracker`.
fn gate_line(tokens: &[&str], tracker: &mut WireTracker, out: &mut Vec<Gate>) -> Result<(), ParseProblem> {
    if tokens.len() < 3 {
        return Err(ParseProblem::TokenCount { what: "gate line", expected: 3, found: tokens.len() as u64 });
    }
    let n_in = number(tokens[0], "gate input count")?;
    let n_out = number(tokens[1], "gate output count")?;
    let expected = n_in.saturating_add(n_out).saturating_add(3);
    if expected != tokens.len() as u64 {
        return Err(ParseProblem::TokenCount { what: "gate line", expected, found: tokens.len() as u64 });
    }
    let name = tokens[tokens.len() - 1];
    let ins = &tokens[2..2 + n_in as usize];
    let outs = &tokens[2 + n_in as usize..tokens.len() - 1];
    let arity = |gate: &'static str, expected: &'static str, ok: bool| {
        if ok {
            Ok(())
        } else {
            Err(ParseProblem::WrongArity { gate, expected, found_in: n_in, found_out: n_out })
        }
    };
    let read = |tracker: &WireTracker, token: &str| -> Result<u32, ParseProblem> {
        let wire = number(token, "input wire")?;
        tracker.read(wire)?;
        Ok(wire as u32)
    };
    let write = |tracker: &mut WireTracker, token: &str| -> Result<u32, ParseProblem> {
        let wire = number(token, "output wire")?;
        tracker.write(wire)?;
        Ok(wire as u32)
    };
    match name {
        "XOR" | "AND" => {
            arity(if name == "XOR" { "XOR" } else { "AND" }, "2 1", n_in == 2 && n_out == 1)?;
            let a = read(tracker, ins[0])?;
            let b = read(tracker, ins[1])?;
            let o = write(tracker, outs[0])?;
            out.push(if name == "XOR" {
                Gate::Linear(LinearGate::Xor { a, b, out: o })
            } else {
                Gate::And(AndGate { a, b, out: o })
            });
        }
        "INV" | "NOT" | "EQW" => {
            arity(if name == "EQW" { "EQW" } else { "INV" }, "1 1", n_in == 1 && n_out == 1)?;
            let a = read(tracker, ins[0])?;
            let o = write(tracker, outs[0])?;
            out.push(Gate::Linear(if name == "EQW" {
                LinearGate::Copy { a, out: o }
            } else {
                LinearGate::Inv { a, out: o }
            }));
        }
        "EQ" => {
            arity("EQ", "1 1", n_in == 1 && n_out == 1)?;
            let value = number(ins[0], "EQ constant")?;
            if value > 1 {
                return Err(ParseProblem::ConstantNotABit { value });
            }
            let o = write(tracker, outs[0])?;
            out.push(Gate::Linear(LinearGate::Const { value: value == 1, out: o }));
        }
        "MAND" => {
            arity("MAND", "2k k with k >= 1", n_out >= 1 && n_in == 2 * n_out)?;
            let k = n_out as usize;
            let lefts = ins[..k].iter().map(|t| read(tracker, t)).collect::<Result<Vec<_>, _>>()?;
            let rights = ins[k..].iter().map(|t| read(tracker, t)).collect::<Result<Vec<_>, _>>()?;
            for ((a, b), o) in lefts.into_iter().zip(rights).zip(outs) {
                let o = write(tracker, o)?;
                out.push(Gate::And(AndGate { a, b, out: o }));
            }
        }
        _ => return Err(ParseProblem::UnknownGate { name: quote(name) }),
    }
    Ok(())
}

/// The three header lines of a Bristol Fashion text: counts and the input and output widths.
pub(crate) struct Header {
    pub(crate) num_gates: u64,
    pub(crate) num_wires: u64,
    pub(crate) input_widths: Vec<u32>,
    pub(crate) output_widths: Vec<u32>,
    /// Wires of the inputs (the first ones) and of the outputs (the last ones).
    pub(crate) n_in: u64,
    pub(crate) n_out: u64,
    /// Line numbers of the input and output declarations.
    pub(crate) declaration_lines: [usize; 2],
}

/// Reads the header lines (the arithmetic form of [`super::mixed`] shares them); an error carries
/// its line number.
pub(crate) fn header(lines: &mut Lines<'_>) -> Result<Header, (usize, ParseProblem)> {
    let line = lines.advance().ok_or((1, ParseProblem::Empty))?;
    let tokens = &lines.tokens;
    if tokens.len() != 2 {
        let problem = ParseProblem::TokenCount {
            what: "header `ngates nwires`",
            expected: 2,
            found: tokens.len() as u64,
        };
        return Err((line, problem));
    }
    let num_gates = number(tokens[0], "number of gates").map_err(|p| (line, p))?;
    let num_wires = bounded(tokens[1], "number of wires", MAX_WIRES).map_err(|p| (line, p))?;
    let mut declaration = |expected: &'static str, what: &'static str| {
        let end = lines.last + 1;
        let line = lines.advance().ok_or((end, ParseProblem::UnexpectedEnd { expected }))?;
        let values = widths(&lines.tokens, what).map_err(|p| (line, p))?;
        Ok::<_, (usize, ParseProblem)>((line, values))
    };
    let (in_line, input_widths) = declaration("the input line `niv n_1 .. n_niv`", "input declaration")?;
    let n_in = total_width(num_wires, &input_widths, "inputs").map_err(|p| (in_line, p))?;
    let (out_line, output_widths) = declaration("the output line `nov m_1 .. m_nov`", "output declaration")?;
    let n_out = total_width(num_wires, &output_widths, "outputs").map_err(|p| (out_line, p))?;
    Ok(Header {
        num_gates,
        num_wires,
        input_widths,
        output_widths,
        n_in,
        n_out,
        declaration_lines: [in_line, out_line],
    })
}

/// Calls `gate` on the tokens of each gate line after the header, checks that there are exactly
/// `num_gates` of them, and returns the line number after the last one read.
pub(crate) fn gate_lines<P: From<ParseProblem>>(
    lines: &mut Lines<'_>,
    num_gates: u64,
    mut gate: impl FnMut(&[&str]) -> Result<(), P>,
) -> Result<usize, (usize, P)> {
    let mut count = 0u64;
    while let Some(line) = lines.advance() {
        if count == num_gates {
            let problem =
                ParseProblem::CountMismatch { what: "gates", declared: num_gates, found: num_gates + 1 };
            return Err((line, problem.into()));
        }
        gate(&lines.tokens).map_err(|p| (line, p))?;
        count += 1;
    }
    let end = lines.last + 1;
    if count != num_gates {
        let problem = ParseProblem::CountMismatch { what: "gates", declared: num_gates, found: count };
        return Err((end, problem.into()));
    }
    Ok(end)
}

impl Circuit {
    /// Parses Bristol Fashion text (format and limits: see the [`bristol`](crate::circuit::bristol) module).
    pub fn parse_bristol(text: &str) -> Result<Circuit, CircuitError> {
        let at = |(line, problem): (usize, ParseProblem)| CircuitError::Parse { line, problem };
        let mut lines = Lines::new(text);
        let Header { num_gates, num_wires, input_widths, output_widths, n_in, n_out, .. } =
            header(&mut lines).map_err(at)?;
        let mut tracker = WireTracker::new(num_wires, n_in);
        // Capacity bounded by the text so a false gate count cannot force a huge allocation.
        let mut gates = Vec::with_capacity((num_gates as usize).min(text.len() / 8));
        let end = gate_lines(&mut lines, num_gates, |tokens| gate_line(tokens, &mut tracker, &mut gates))
            .map_err(at)?;
        if let Some(wire) = (num_wires - n_out..num_wires).find(|&w| !tracker.is_written(w)) {
            return Err(at((end, ParseProblem::OutputNeverWritten { wire })));
        }
        Ok(Circuit::from_checked(num_wires as u32, input_widths, output_widths, gates))
    }

    /// Writes the circuit as basic Bristol Fashion text (gates in layer order, one `AND` line per AND
    /// gate); [`Circuit::parse_bristol`] reads it back to an equal circuit.
    pub fn to_bristol(&self) -> String {
        let mut text = String::with_capacity(24 * self.gate_counts().total() + 64);
        let list = |widths: &[u32]| widths.iter().map(|w| format!(" {w}")).collect::<String>();
        // Writing to a String cannot fail.
        let _ = writeln!(text, "{} {}", self.gate_counts().total(), self.num_wires());
        let _ = writeln!(text, "{}{}", self.input_widths().len(), list(self.input_widths()));
        let _ = writeln!(text, "{}{}", self.output_widths().len(), list(self.output_widths()));
        text.push('\n');
        for gate in self.gates() {
            let _ = match gate {
                Gate::And(AndGate { a, b, out }) => writeln!(text, "2 1 {a} {b} {out} AND"),
                Gate::Linear(LinearGate::Xor { a, b, out }) => {
                    writeln!(text, "2 1 {a} {b} {out} XOR")
                }
                Gate::Linear(LinearGate::Inv { a, out }) => writeln!(text, "1 1 {a} {out} INV"),
                Gate::Linear(LinearGate::Copy { a, out }) => writeln!(text, "1 1 {a} {out} EQW"),
                Gate::Linear(LinearGate::Const { value, out }) => {
                    writeln!(text, "1 1 {} {out} EQ", u8::from(value))
                }
            };
        }
        text
    }
}
