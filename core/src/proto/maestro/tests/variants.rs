//! Each S-box variant under the generic suite, its variant-specific errors, and the `rayon`
//! feature's equivalence with the in-order computation.

use super::*;

#[test]
fn gf256_circuit_aes_suite() {
    aes_suite::<Gf256CircuitSbox>();
}

#[test]
fn gf16_circuit_aes_suite() {
    aes_suite::<Gf16CircuitSbox>();
}

#[test]
fn lut16_aes_suite() {
    aes_suite::<Lut16Sbox>();
}

#[test]
fn lut16_without_enough_preprocessing_is_a_typed_error_before_sending() {
    let results = run_session(3, |mut net| async move {
        let mut sbox = Lut16Sbox::new(setup(&mut net, 17).await);
        sbox.preprocess(&mut net, 3).await.unwrap();
        let mut bytes = sbox.party().prss_mut().random(4);
        let before = net.stats();
        let err = sbox.sub_bytes(&mut net, &mut bytes).await;
        (err, sbox.available(), net.stats().since(&before).bytes_sent)
    });
    for r in results {
        assert_eq!(r, (Err(MaestroError::PreprocessingExhausted { needed: 4, available: 3 }), 3, 0));
    }
}

#[test]
fn lut16_malformed_lookup_opening_names_sender() {
    let results = run_session(3, |mut net| async move {
        let mut sbox = Lut16Sbox::new(setup(&mut net, 18).await);
        sbox.preprocess(&mut net, 3).await.unwrap();
        let mut bytes = sbox.party().prss_mut().random(3);
        if net.party() == 2 {
            // Party 2 sends party 0 a padded opening with a nonzero padding nibble.
            net.send(0, vec![0, 0xf0]).unwrap();
            return None;
        }
        Some(sbox.sub_bytes(&mut net, &mut bytes).await)
    });
    assert_eq!(results[0], Some(Err(MaestroError::NonzeroPadding { from: 2, step: Step::LookupOpen })));
}

#[test]
fn lut256_aes_suite() {
    aes_suite::<Lut256Sbox>();
}

#[test]
fn lut256_33_aes_suite() {
    aes_suite::<AdditiveLut256Sbox>();
}

#[test]
fn lut256_33_without_enough_preprocessing_is_a_typed_error_before_sending() {
    let results = run_session(3, |mut net| async move {
        let mut sbox = AdditiveLut256Sbox::new(setup(&mut net, 19).await);
        sbox.preprocess(&mut net, 3).await.unwrap();
        let mut bytes: Vec<MixedShare> = to_shares(sbox.party().prss_mut().random(4));
        let before = net.stats();
        let err = sbox.inv_sub_bytes(&mut net, &mut bytes).await;
        (err, sbox.available(), net.stats().since(&before).bytes_sent)
    });
    for r in results {
        assert_eq!(r, (Err(MaestroError::PreprocessingExhausted { needed: 4, available: 3 }), 3, 0));
    }
}

/// With the `rayon` feature, every bulk step split over threads gives exactly the shares (and
/// messages) of the in-order computation: PRSS streams, products, S-box layers, preprocessing.
#[cfg(all(feature = "rayon", not(target_arch = "wasm32")))]
#[test]
fn rayon_split_gives_identical_shares() {
    use super::packed::Packed;
    use super::par::sequentially;
    let run = || {
        run_session(3, |mut net| async move {
            let mut party = setup(&mut net, 90).await;
            let x = party.prss_mut().random_packed(3001);
            let mut out = vec![x.clone()];
            out.push(
                party
                    .mul_packed(
                        &mut net,
                        &x,
                        &x.map_linear(&super::packed::ByteLinear::new(|b| b.rotate_left(1))),
                    )
                    .await
                    .unwrap(),
            );
            out.push(super::sbox::gf256_circuit::inverse_packed(&mut party, &mut net, &x).await.unwrap());
            out.push(super::sbox::gf16_circuit::inverse_packed(&mut party, &mut net, &x).await.unwrap());
            let one_hot16 = super::sbox::one_hot16::generate(&mut party, &mut net, 1500).await.unwrap();
            let one_hot256 = super::sbox::lut256::generate(&mut party, &mut net, 700).await.unwrap();
            let mut bytes = x.to_shares();
            let mut lut = Lut16Sbox::new(party);
            lut.preprocess(&mut net, bytes.len()).await.unwrap();
            lut.sub_bytes(&mut net, &mut bytes).await.unwrap();
            out.push(Packed::from_shares(net.party(), &bytes));
            (out, one_hot16, one_hot256, net.stats())
        })
    };
    let parallel = run();
    let in_order = sequentially(run);
    assert!(parallel == in_order, "the rayon split changed shares or messages");
}
