//! The AES driver's roles and failures: key shares from several parties, partial reveals,
//! supplied round keys, and typed errors for bad keys, malformed messages and vanished peers.

use super::*;

#[test]
fn key_as_xor_shares_of_two_parties() {
    let runs = run_aes::<Gf256CircuitSbox>(
        &FIPS_KEY,
        &[FIPS_PT, FIPS_PT],
        Direction::Encrypt,
        KeyInput::XorShares(0, 2),
        1,
        &[0, 1, 2],
        8,
    );
    for run in &runs {
        assert_eq!(run.output.as_deref(), Some(&FIPS_CT.repeat(2)[..]));
    }
}

#[test]
fn reveal_to_party_2_only() {
    let runs = run_aes::<Gf256CircuitSbox>(
        &FIPS_KEY,
        &[FIPS_PT],
        Direction::Encrypt,
        KeyInput::Party(0),
        1,
        &[2],
        9,
    );
    assert_eq!(runs[0].output, None);
    assert_eq!(runs[1].output, None);
    assert_eq!(runs[2].output.as_deref(), Some(&FIPS_CT[..]));
}

#[test]
fn reveal_costs_and_unknown_recipient() {
    let results = run_session(3, |mut net| async move {
        let mut party = setup(&mut net, 10).await;
        let shares = party.prss_mut().random(10);
        let before = net.stats();
        let to_two = party.reveal(&mut net, &shares, &[2]).await.unwrap();
        let reveal_stats = net.stats().since(&before);
        let cost_to_two = (reveal_stats.bytes_sent, reveal_stats.bytes_received);
        let to_all = party.open(&mut net, &shares).await.unwrap();
        let bad = party.reveal(&mut net, &shares, &[0, 5]).await;
        (to_two, cost_to_two, to_all, bad)
    });
    // Only party 0 serves party 2 (it sends its second component x₁); parties 0 and 1 receive
    // nothing, so they learn nothing beyond their own shares.
    assert_eq!(results.iter().map(|r| r.1).collect::<Vec<_>>(), vec![(10, 0), (0, 0), (0, 10)]);
    assert_eq!(results[2].0.as_ref(), Some(&results[0].2));
    for r in &results {
        assert_eq!(r.2, results[0].2);
        assert_eq!(r.3, Err(MaestroError::UnknownParty(5)));
    }
}

#[test]
fn supplied_shared_round_keys_encrypt_and_decrypt() {
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    let plain = Aes::new(&FIPS_KEY).unwrap();
    let round_keys_plain = crate::aes::expand_key(KeySize::Aes128, &gf(&FIPS_KEY), |w| {
        for b in w.iter_mut() {
            *b = crate::aes::sbox::sbox(*b);
        }
    });
    // Deal every round-key byte: per_party[p][r][j].
    let mut per_party: Vec<Vec<[RssShare; 16]>> = vec![Vec::new(); 3];
    for rk in round_keys_plain.as_slice() {
        let dealt: Vec<[RssShare; 3]> = rk.iter().map(|b| RssShare::deal(*b, &mut rng)).collect();
        for (p, keys) in per_party.iter_mut().enumerate() {
            keys.push(core::array::from_fn(|j| dealt[j][p]));
        }
    }
    let dealt_pt: Vec<[RssShare; 3]> = FIPS_PT.iter().map(|&b| RssShare::deal(Gf256(b), &mut rng)).collect();
    let pt: Vec<[RssShare; 16]> = (0..3).map(|p| core::array::from_fn(|j| dealt_pt[j][p])).collect();
    let results = run_session(3, |mut net| {
        let keys = per_party[net.party()].clone();
        let pt = &pt;
        async move {
            let mut sbox = Gf256CircuitSbox::new(setup(&mut net, 11).await);
            let me = net.party();
            let mut state = vec![pt[me]];
            let short = round_keys_from_shares(KeySize::Aes128, keys[..10].to_vec()).map(|_| ());
            let round_keys = round_keys_from_shares(KeySize::Aes128, keys).unwrap();
            let before = net.stats();
            encrypt_blocks(&mut sbox, &mut net, &round_keys, &mut state).await.unwrap();
            let stats = net.stats().since(&before);
            let ct = sbox.party().open(&mut net, state.as_flattened()).await.unwrap();
            let before = net.stats();
            decrypt_blocks(&mut sbox, &mut net, &round_keys, &mut state).await.unwrap();
            let dec_stats = net.stats().since(&before);
            let back = sbox.party().open(&mut net, state.as_flattened()).await.unwrap();
            (ct, stats, short, back, dec_stats)
        }
    });
    for (ct, stats, short, back, dec_stats) in results {
        assert_eq!(ct, gf(&plain.encrypt_block(&FIPS_PT)));
        assert_eq!((stats.bytes_sent * 8, stats.rounds), (5120, 30));
        assert_eq!(short, Err(MaestroError::BadRoundKeyCount { expected: 11, actual: 10 }));
        assert_eq!(back, gf(&FIPS_PT), "decryption with the supplied round keys");
        assert_eq!((dec_stats.bytes_sent * 8, dec_stats.rounds), (5120, 30));
    }
}

#[test]
fn bad_key_length_is_an_error() {
    let results = run_session(3, |mut net| async move {
        let mut sbox = Gf256CircuitSbox::new(setup(&mut net, 12).await);
        let key = vec![RssShare::zero(net.party()); 15];
        expand_key(&mut sbox, &mut net, &key).await.map(|_| ())
    });
    for r in results {
        assert_eq!(r, Err(MaestroError::BadKeyLength(15)));
    }
}

#[test]
fn short_multiplication_message_names_sender_and_lengths() {
    let results = run_session(3, |mut net| async move {
        let mut party = setup(&mut net, 13).await;
        let me = net.party();
        let a = party.prss_mut().random(8);
        if me == 1 {
            // Party 1 cheats: its resharing message to party 0 is one byte short.
            net.send(0, vec![0; 7]).unwrap();
            return None;
        }
        Some(party.mul(&mut net, &a, &a).await.map(|_| ()))
    });
    assert_eq!(
        results[0],
        Some(Err(MaestroError::MalformedMessage { from: 1, step: Step::Multiply, expected: 8, actual: 7 }))
    );
}

#[test]
fn vanished_peer_is_a_network_error_with_step_and_round() {
    let results = run_session(3, |mut net| async move {
        let mut party = setup(&mut net, 14).await;
        if net.party() == 1 {
            return None;
        }
        let a = party.prss_mut().random(4);
        Some(party.mul(&mut net, &a, &a).await.map(|_| ()))
    });
    // Party 0 waits for party 1's resharing message; party 1 left after the setup round.
    assert_eq!(
        results[0],
        Some(Err(MaestroError::Network { step: Step::Multiply, round: 2, source: NetError::PeerLeft(1) }))
    );
}
