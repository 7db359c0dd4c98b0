//! Properties over many random inputs: no bytes panic a parser, written formulas read
//! back, shuffles keep exactly the models (mapped back), and printed answers read back.

use hammer_cnf::file::decompress;
use hammer_cnf::{
    Answer, Cnf, Digest, Model, Signs, dimacs, parse_minisat_result, parse_output, shuffle,
};
use proptest::prelude::*;

/// A small formula: up to 8 variables and 12 clauses of up to 4 literals (repeats,
/// tautologies and empty clauses included, as DIMACS allows).
fn small_cnf() -> impl Strategy<Value = Cnf> {
    (1u32..=8).prop_flat_map(|vars| {
        let lit = (1..=vars as i32, any::<bool>()).prop_map(|(v, neg)| if neg { -v } else { v });
        prop::collection::vec(prop::collection::vec(lit, 0..=4), 0..=12).prop_map(move |clauses| {
            let mut cnf = Cnf::new(vars);
            for clause in clauses {
                cnf.push_clause(&clause).expect("in range");
            }
            cnf
        })
    })
}

/// Every full assignment of `vars` variables, as models.
fn assignments(vars: u32) -> impl Iterator<Item = Model> {
    (0..1u32 << vars).map(move |bits| {
        let lits = (1..=vars as i32).map(|v| if bits >> (v - 1) & 1 == 1 { v } else { -v });
        Model::from_literals(lits).expect("a model")
    })
}

/// Tokens that solver output and DIMACS text are made of, to reach deeper than bytes.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("s".to_owned()),
        Just("v".to_owned()),
        Just("c".to_owned()),
        Just("p".to_owned()),
        Just("cnf".to_owned()),
        Just("%".to_owned()),
        Just("SATISFIABLE".to_owned()),
        Just("UNSATISFIABLE".to_owned()),
        Just("UNKNOWN".to_owned()),
        Just("SAT".to_owned()),
        Just("0".to_owned()),
        Just("\n".to_owned()),
        Just("\r\n".to_owned()),
        Just(" ".to_owned()),
        Just("-2147483648".to_owned()),
        Just("2147483647".to_owned()),
        (-5i64..=5).prop_map(|n| n.to_string()),
        "[a-z0-9+-]{1,4}",
    ]
}

fn sentence() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(token(), 0..40).prop_map(|tokens| tokens.join(" ").into_bytes())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn no_bytes_panic_the_parsers(bytes in prop::collection::vec(any::<u8>(), 0..512),
                                  code in prop::option::of(-1i32..=30)) {
        let _ = parse_output(&bytes, code);
        let _ = parse_minisat_result(&bytes, code);
        let _ = dimacs::parse(&bytes);
        let _ = decompress(&bytes);
        let _ = std::str::from_utf8(&bytes).map(|text| text.parse::<Digest>());
    }

    #[test]
    fn no_token_soup_panics_the_parsers(text in sentence(), code in prop::option::of(0i32..=20)) {
        let _ = parse_output(&text, code);
        let _ = parse_minisat_result(&text, code);
        if let Ok(cnf) = dimacs::parse(&text) {
            // Whatever parses writes and reads back as itself.
            prop_assert_eq!(dimacs::parse(&dimacs::to_bytes(&cnf)), Ok(cnf));
        }
    }

    #[test]
    fn compressed_garbage_is_an_error_not_a_panic(
        gzip in any::<bool>(),
        tail in prop::collection::vec(any::<u8>(), 0..256),
    ) {
        let mut bytes = if gzip { vec![0x1f, 0x8b] } else { vec![0xfd, b'7', b'z', b'X', b'Z', 0] };
        bytes.extend(tail);
        let _ = decompress(&bytes);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn written_formulas_read_back(cnf in small_cnf()) {
        prop_assert_eq!(dimacs::parse(&dimacs::to_bytes(&cnf)), Ok(cnf));
    }

    #[test]
    fn any_layout_of_a_formula_reads_the_same(
        cnf in small_cnf(),
        breaks in prop::collection::vec(0u8..6, 64),
    ) {
        // The same literals with the blanks between them drawn from spaces, tabs, line
        // breaks and comment lines.
        let mut text = format!("c layout\np cnf {} {}\n", cnf.vars(), cnf.num_clauses());
        let mut gap = breaks.iter().cycle();
        for clause in cnf.clauses() {
            for lit in clause.iter().chain(&[0]) {
                text.push_str(&lit.to_string());
                text.push_str(match gap.next() {
                    Some(0) => "\n",
                    Some(1) => "\t",
                    Some(2) => "\r\nc a comment\n",
                    Some(3) => "  ",
                    _ => " ",
                });
            }
        }
        prop_assert_eq!(dimacs::parse(text.as_bytes()), Ok(cnf));
    }

    #[test]
    fn shuffles_keep_the_models(cnf in small_cnf(), seed in any::<u64>(), index in 0u64..1000,
                                flip in any::<bool>()) {
        let signs = if flip { Signs::Flip } else { Signs::Keep };
        let (shuffled, renaming) = shuffle(&cnf, seed, index, signs).expect("shuffled");
        prop_assert_eq!(shuffled.num_clauses(), cnf.num_clauses());
        prop_assert_eq!(shuffled.num_literals(), cnf.num_literals());
        let mut models = (0, 0);
        for model in assignments(cnf.vars()) {
            models.0 += usize::from(cnf.check(&model).is_ok());
            if shuffled.check(&model).is_ok() {
                models.1 += 1;
                let back = renaming.to_original(&model).expect("in range");
                prop_assert_eq!(back.len(), model.len());
                prop_assert!(cnf.check(&back).is_ok(), "{:?} maps back to a non-model", model);
            }
        }
        prop_assert_eq!(models.0, models.1, "the same number of models");
    }

    #[test]
    fn the_check_agrees_with_the_definition(cnf in small_cnf(), bits in any::<u32>()) {
        let model = assignments(cnf.vars()).nth((bits % (1 << cnf.vars())) as usize)
            .expect("in range");
        let satisfied = cnf.clauses().all(|clause| {
            clause.iter().any(|&lit| model.value(lit.unsigned_abs()) == Some(lit > 0))
        });
        prop_assert_eq!(cnf.check(&model).is_ok(), satisfied);
    }

    #[test]
    fn printed_answers_read_back(
        vars in 0u32..200,
        bits in prop::collection::vec(any::<bool>(), 200),
        width in 1usize..30,
    ) {
        let lits: Vec<i32> = (1..=vars as i32)
            .map(|v| if bits[v as usize - 1] { v } else { -v })
            .collect();
        let mut out = String::from("c solver\ns SATISFIABLE\n");
        let mut all: Vec<String> = lits.iter().map(i32::to_string).collect();
        all.push("0".into());
        for line in all.chunks(width) {
            out.push_str("v ");
            out.push_str(&line.join(" "));
            out.push('\n');
        }
        let model = Model::from_literals(lits.iter().copied()).expect("model");
        prop_assert_eq!(parse_output(out.as_bytes(), Some(10)), Answer::Sat(model.clone()));
        let minisat = format!("SAT\n{}\n", all.join(" "));
        prop_assert_eq!(parse_minisat_result(minisat.as_bytes(), Some(10)), Answer::Sat(model));
    }
}
