//! The parser of mixed circuits (format: the [module docs](super)), on the Bristol Fashion header
//! and line reader of [`crate::circuit::bristol`].

use super::{MixedCircuit, MixedCircuitError, MixedGate, MixedIo, MixedOp, MixedProblem};
use crate::circuit::bristol::{gate_lines, header, number, quote, Header, Lines};
use crate::circuit::error::{ParseProblem, WireProblem};
use crate::circuit::repr::WireTracker;

/// Parses one gate line into `out`, checking its wires with `tracker`.
fn gate_line(
    tokens: &[&str],
    tracker: &mut WireTracker,
    out: &mut Vec<MixedGate>,
) -> Result<(), MixedProblem> {
    if tokens.len() < 3 {
        return Err(
            ParseProblem::TokenCount { what: "gate line", expected: 3, found: tokens.len() as u64 }.into()
        );
    }
    let n_in = number(tokens[0], "gate input count")?;
    let n_out = number(tokens[1], "gate output count")?;
    let expected = n_in.saturating_add(n_out).saturating_add(3);
    if expected != tokens.len() as u64 {
        return Err(
            ParseProblem::TokenCount { what: "gate line", expected, found: tokens.len() as u64 }.into()
        );
    }
    let name = tokens[tokens.len() - 1];
    let op = MixedOp::from_name(name).ok_or_else(|| MixedProblem::UnknownGate { name: quote(name) })?;
    if n_in != op.arity() as u64 || n_out != 1 {
        return Err(MixedProblem::Arity {
            gate: op.name(),
            expected: op.arity(),
            found_in: n_in,
            found_out: n_out,
        });
    }
    let mut inputs = [0u32; 2];
    for (slot, token) in inputs.iter_mut().zip(&tokens[2..2 + op.arity()]) {
        let wire = number(token, "input wire")?;
        tracker.read(wire).map_err(ParseProblem::from)?;
        *slot = wire as u32;
    }
    let wire = number(tokens[2 + op.arity()], "output wire")?;
    tracker.write(wire).map_err(ParseProblem::from)?;
    out.push(MixedGate { op, inputs, out: wire as u32 });
    Ok(())
}

impl MixedCircuit {
    /// Parses a mixed circuit's text with its constants and output addresses `io` (as Summon's
    /// circuit info lists them).
    pub fn parse(text: &str, io: &MixedIo) -> Result<MixedCircuit, MixedCircuitError> {
        let at = |(line, problem): (usize, MixedProblem)| MixedCircuitError::Parse { line, problem };
        let mut lines = Lines::new(text);
        let Header { num_gates, num_wires, input_widths, output_widths, n_in, n_out, declaration_lines } =
            header(&mut lines).map_err(|(line, p)| at((line, p.into())))?;
        let declared = [("input", &input_widths), ("output", &output_widths)];
        for ((what, widths), line) in declared.into_iter().zip(declaration_lines) {
            if let Some((index, &width)) = widths.iter().enumerate().find(|(_, &w)| w != 1) {
                return Err(at((line, MixedProblem::Width { what, index, width })));
            }
        }
        let mut tracker = WireTracker::new(num_wires, n_in);
        let mut constant_wires = Vec::with_capacity(io.constants.len());
        for &(wire, value) in &io.constants {
            let reason = match tracker.write(wire) {
                Ok(()) => {
                    constant_wires.push((wire as u32, value));
                    continue;
                }
                Err(WireProblem::OutOfRange { .. }) => "the wire is out of range",
                Err(_) if wire < n_in => "the wire is an input",
                Err(_) => "the wire has another constant",
            };
            return Err(MixedCircuitError::Constant { wire, reason });
        }
        // Capacity bounded by the text so a false gate count cannot force a huge allocation.
        let mut gates = Vec::with_capacity((num_gates as usize).min(text.len() / 8));
        let end = gate_lines(&mut lines, num_gates, |tokens| gate_line(tokens, &mut tracker, &mut gates))
            .map_err(at)?;
        let outputs: Vec<u64> = match &io.outputs {
            None => {
                if let Some(wire) = (num_wires - n_out..num_wires).find(|&w| !tracker.is_written(w)) {
                    return Err(at((end, ParseProblem::OutputNeverWritten { wire }.into())));
                }
                (num_wires - n_out..num_wires).collect()
            }
            Some(addresses) => {
                let bad = |index: usize, reason: String| Err(MixedCircuitError::Output { index, reason });
                if addresses.len() as u64 != n_out {
                    return bad(
                        addresses.len(),
                        format!("{} addresses for {n_out} declared outputs", addresses.len()),
                    );
                }
                if let Some((index, &wire)) =
                    addresses.iter().enumerate().find(|(_, &w)| !tracker.is_written(w))
                {
                    return bad(index, format!("wire {wire} is out of range or never written"));
                }
                addresses.clone()
            }
        };
        Ok(MixedCircuit {
            wires: num_wires as u32,
            inputs: n_in as u32,
            outputs: outputs.into_iter().map(|w| w as u32).collect(),
            constants: constant_wires,
            gates,
        })
    }
}
