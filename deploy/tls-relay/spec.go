package main

import (
	"crypto/rand"

	utls "github.com/refraction-networking/utls"
)

// chromeSigAlgs are Chromium 156's signature algorithms after its GREASE value: ML-DSA-44, -65,
// -87 (0x0904-0x0906), then Chrome's 8 in Chrome's order (measured with test/fixtures/tls-fingerprint.ts).
var chromeSigAlgs = []utls.SignatureScheme{
	0x0904, 0x0905, 0x0906,
	utls.ECDSAWithP256AndSHA256,
	utls.PSSWithSHA256,
	utls.PKCS1WithSHA256,
	utls.ECDSAWithP384AndSHA384,
	utls.PSSWithSHA384,
	utls.PKCS1WithSHA384,
	utls.PSSWithSHA512,
	utls.PKCS1WithSHA512,
}

// chromeH2Settings is Chrome's HTTP/2 SETTINGS payload (1:65536, 2:0, 4:6291456, 6:262144), sent
// as the h2 application settings when a site negotiates ALPS, as Chrome does.
var chromeH2Settings = []byte{
	0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
	0x00, 0x02, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x04, 0x00, 0x60, 0x00, 0x00,
	0x00, 0x06, 0x00, 0x04, 0x00, 0x00,
}

// greaseValue is one of RFC 8701's sixteen GREASE codepoints (0x0a0a, 0x1a1a, ... 0xfafa), drawn anew per connection.
func greaseValue() uint16 {
	var b [1]byte
	_, _ = rand.Read(b[:])
	n := uint16(b[0]&0xf0) | 0x0a
	return n<<8 | n
}

// chromeSpec is a fresh ClientHello spec per connection: utls's Chrome 133 (GREASE, shuffled
// extensions, X25519MLKEM768 key share, ALPS 0x44cd, ECH GREASE, brotli certificate compression)
// with Chromium 156's signature algorithms: a GREASE value first, ML-DSA, then Chrome's 8.
func chromeSpec() (utls.ClientHelloSpec, error) {
	spec, err := utls.UTLSIdToSpec(utls.HelloChrome_133)
	if err != nil {
		return spec, err
	}
	for _, ext := range spec.Extensions {
		if sa, ok := ext.(*utls.SignatureAlgorithmsExtension); ok {
			sa.SupportedSignatureAlgorithms = append([]utls.SignatureScheme{utls.SignatureScheme(greaseValue())}, chromeSigAlgs...)
		}
	}
	return spec, nil
}
