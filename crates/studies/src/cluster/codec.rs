//! The bytes a result travels as: MessagePack with field names, which keeps every `f64`
//! bit for bit (NaN and infinities included) and honours serde's field attributes.

use super::Portable;

/// Encodes one result.
pub fn encode<R: Portable>(r: &R) -> Vec<u8> {
    rmp_serde::to_vec_named(r).expect("a result encodes (its type derives Serialize)")
}

/// Decodes one result encoded by [`encode`] on another rank of the same binary.
pub fn decode<R: Portable>(bytes: &[u8]) -> R {
    rmp_serde::from_slice(bytes).expect("a result decodes (same binary on every rank)")
}

/// Joins encoded results into one message: each is its length (u64, little-endian) and
/// its bytes.
pub fn join(parts: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::with_capacity(parts.iter().map(|p| p.len() + 8).sum());
    for p in parts {
        out.extend_from_slice(&(p.len() as u64).to_le_bytes());
        out.extend_from_slice(p);
    }
    out
}

/// Splits a message made by [`join`].
pub fn split(mut bytes: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    while bytes.len() >= 8 {
        let (len, rest) = bytes.split_at(8);
        let len = u64::from_le_bytes(len.try_into().expect("8 bytes")) as usize;
        let (part, rest) = rest.split_at(len);
        out.push(part);
        bytes = rest;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_survive_bit_for_bit() {
        let v = vec![0.1f64, 1.0 / 3.0, f64::NAN, f64::INFINITY, -0.0, 5e-324];
        let back: Vec<f64> = decode(&encode(&v));
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&back), bits(&v));
    }

    #[test]
    fn join_and_split_are_inverse() {
        let parts = vec![vec![1u8, 2, 3], vec![], vec![9u8; 300]];
        let joined = join(&parts);
        let back: Vec<Vec<u8>> = split(&joined).into_iter().map(<[u8]>::to_vec).collect();
        assert_eq!(back, parts);
    }
}
