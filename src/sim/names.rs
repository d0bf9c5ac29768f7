//! Names and hashes every layer of the simulator shares: apimachinery's vowel-free name
//! alphabet and the FNV hashes that stand in for what a real component would draw at
//! random. A leaf: it imports nothing from the simulator.

/// The alphabet apimachinery's rand.String and SafeEncodeString use (no vowels, no 0/1/3).
pub const NAME_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// FNV-1a, 32 bits, from `h` (the pod-template hash, B3).
pub fn fnv32a(bytes: &[u8], mut h: u32) -> u32 {
    for b in bytes {
        h ^= u32::from(*b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// FNV-1 (multiply, then xor), 32 bits, from its offset basis: Go's `fnv.New32`, which
/// the ControllerRevision hash uses (not the FNV-1a of the pod-template hash).
pub fn fnv32(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in bytes {
        h = h.wrapping_mul(0x0100_0193);
        h ^= u32::from(*b);
    }
    h
}

/// FNV-1a's 64-bit offset basis.
pub const FNV64_BASIS: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, 64 bits, from `basis`: the simulator's stand-in for ids and digests a real
/// component would draw at random, so they come from a name without touching the seeded
/// stream.
pub fn fnv64a(bytes: &[u8], basis: u64) -> u64 {
    bytes.iter().fold(basis, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Appends `bytes` as lowercase hex, two digits each (Go's `%x` of a byte slice).
pub fn push_hex(out: &mut String, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_two_lowercase_digits_a_byte() {
        let mut s = String::from(">");
        push_hex(&mut s, &[0x00, 0x0f, 0xa0, 0xff, 0x12]);
        assert_eq!(s, ">000fa0ff12");
        let h = 0x0123_4567_89ab_cdefu64;
        let mut t = String::new();
        push_hex(&mut t, &h.to_be_bytes());
        assert_eq!(t, format!("{h:016x}"));
    }
}
