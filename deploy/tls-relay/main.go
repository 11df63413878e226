// The Chrome-ClientHello TLS relay of http mode (docs/scraping.md "How we look to a site", "http mode").
//
// wreq-js sends every impersonated https hop through this relay, an HTTP CONNECT proxy on
// 127.0.0.1 (a free port, printed on stdout). For CONNECT host:port the relay
//
//  1. opens the tunnel through the service's egress proxy (scrape/browser/egress-proxy.ts) with the
//     caller's egress token, so DNS pinning, the private-target guard and upstream proxy chaining
//     stay exactly as without the relay; a refusal (403 with x-scrape-guard, 502 PROXY_FAILED) is
//     answered to the caller as the egress proxy gave it;
//  2. does the TLS handshake with the site itself, with utls and the ClientHello of the shipped
//     Chromium (chromeSpec: utls's Chrome 133 spec with Chromium 156's signature algorithms: a
//     GREASE value, ML-DSA, then Chrome's 8), verifying the certificate against the roots the
//     service trusts (unless the caller asked to skip verification); a failure answers 502 with
//     x-scrape-guard SCRAPE_FAILED and the reason;
//  3. answers 200, finishes a local TLS handshake with the caller (a self-signed certificate made
//     at start: the caller skips verification on this loopback hop only, the relay did the real
//     one) offering only the ALPN protocol the site chose, and copies plaintext both ways, so the
//     caller's HTTP/2 frames (SETTINGS, WINDOW_UPDATE, HEADERS priority, header order) reach the
//     site unchanged.
//
// Configuration is one JSON line on stdin (secrets never on the command line); the relay exits when
// stdin closes, so it never outlives the Node process that started it.
package main

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	utls "github.com/refraction-networking/utls"
)

type config struct {
	// Egress is the egress proxy's host:port on 127.0.0.1.
	Egress       string `json:"egress"`
	EgressSecret string `json:"egressSecret"`
	// RelaySecret is the password every caller must present.
	RelaySecret string `json:"relaySecret"`
	// CAFile is the PEM bundle of trusted roots (empty: the system's, which honours SSL_CERT_FILE).
	CAFile           string `json:"caFile"`
	ConnectTimeoutMs int    `json:"connectTimeoutMs"`
}

type relay struct {
	cfg     config
	roots   *x509.CertPool
	local   tls.Certificate
	timeout time.Duration
}

func main() {
	line, err := bufio.NewReader(os.Stdin).ReadBytes('\n')
	if err != nil {
		fatal("reading the configuration line on stdin: %v", err)
	}
	var cfg config
	if err := json.Unmarshal(line, &cfg); err != nil {
		fatal("configuration: %v", err)
	}
	r, err := newRelay(cfg)
	if err != nil {
		fatal("%v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fatal("listen: %v", err)
	}
	fmt.Printf("{\"port\":%d}\n", ln.Addr().(*net.TCPAddr).Port)
	// The owner closes stdin (or dies): stop.
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	for {
		c, err := ln.Accept()
		if err != nil {
			fatal("accept: %v", err)
		}
		go r.serve(c)
	}
}

func fatal(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "tls-relay: "+format+"\n", args...)
	os.Exit(1)
}

func newRelay(cfg config) (*relay, error) {
	roots, err := loadRoots(cfg.CAFile)
	if err != nil {
		return nil, err
	}
	local, err := selfSigned()
	if err != nil {
		return nil, err
	}
	timeout := time.Duration(cfg.ConnectTimeoutMs) * time.Millisecond
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	return &relay{cfg: cfg, roots: roots, local: local, timeout: timeout}, nil
}

func loadRoots(caFile string) (*x509.CertPool, error) {
	if caFile == "" {
		return x509.SystemCertPool()
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", caFile, err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("no certificate in %s", caFile)
	}
	return pool, nil
}

// selfSigned is the certificate of the loopback hop (the caller does not verify it).
func selfSigned() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "tls-relay"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(10 * 365 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}

// caller is what a caller's Proxy-Authorization says: "verify.<egress token>" or
// "insecure.<egress token>" as user, the relay's secret as password.
type caller struct {
	egressToken string
	insecure    bool
}

func (r *relay) authenticate(req *http.Request) (caller, bool) {
	auth := req.Header.Get("Proxy-Authorization")
	if !strings.HasPrefix(strings.ToLower(auth), "basic ") {
		return caller{}, false
	}
	decoded, err := base64.StdEncoding.DecodeString(strings.TrimSpace(auth[6:]))
	if err != nil {
		return caller{}, false
	}
	user, pass, ok := strings.Cut(string(decoded), ":")
	if !ok || subtle.ConstantTimeCompare([]byte(pass), []byte(r.cfg.RelaySecret)) != 1 {
		return caller{}, false
	}
	mode, token, ok := strings.Cut(user, ".")
	if !ok || (mode != "verify" && mode != "insecure") || token == "" {
		return caller{}, false
	}
	return caller{egressToken: token, insecure: mode == "insecure"}, true
}

func (r *relay) serve(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(r.timeout + 5*time.Second))
	br := bufio.NewReader(c)
	req, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	if req.Method != http.MethodConnect {
		writeStatus(c, 405, "Method Not Allowed", nil)
		return
	}
	who, ok := r.authenticate(req)
	if !ok {
		writeStatus(c, 407, "Proxy Authentication Required", map[string]string{"Proxy-Authenticate": `Basic realm="tls-relay"`})
		return
	}
	target := req.Host
	host, _, err := net.SplitHostPort(target)
	if err != nil {
		writeStatus(c, 400, "Bad Request", nil)
		return
	}
	upstream, refusal := r.tunnel(target, who.egressToken)
	if refusal != nil {
		writeRaw(c, refusal)
		return
	}
	defer upstream.Close()
	site, err := r.handshake(upstream, host, who.insecure)
	if err != nil {
		// The caller's TLS stack reports an alert by name (e.g. TLSV1_ALERT_UNKNOWN_CA), where a
		// refused CONNECT would only say "tunnel error": so the tunnel opens and the alert follows.
		writeStatus(c, 200, "Connection established", nil)
		refuseHandshake(br, c, alertFor(err))
		return
	}
	defer site.Close()
	writeStatus(c, 200, "Connection established", nil)
	alpn := site.ConnectionState().NegotiatedProtocol
	var protos []string
	if alpn != "" {
		protos = []string{alpn}
	}
	// Full-size records on loopback: fewer records to decrypt and re-encrypt per response.
	local := tls.Server(&bufferedConn{Conn: c, r: br}, &tls.Config{Certificates: []tls.Certificate{r.local}, NextProtos: protos, DynamicRecordSizingDisabled: true})
	if err := local.Handshake(); err != nil {
		return
	}
	_ = c.SetDeadline(time.Time{})
	_ = upstream.SetDeadline(time.Time{})
	pipe(local, site)
}

// tunnel opens CONNECT target through the egress proxy; on refusal it returns the egress proxy's
// answer (status line and headers) for the caller.
func (r *relay) tunnel(target, token string) (net.Conn, []byte) {
	conn, err := net.DialTimeout("tcp", r.cfg.Egress, r.timeout)
	if err != nil {
		return nil, statusBytes(502, "Bad Gateway", map[string]string{"X-Scrape-Guard": "SCRAPE_FAILED"})
	}
	_ = conn.SetDeadline(time.Now().Add(r.timeout + 5*time.Second))
	creds := base64.StdEncoding.EncodeToString([]byte(token + ":" + r.cfg.EgressSecret))
	fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\nProxy-Authorization: Basic %s\r\n\r\n", target, target, creds)
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		conn.Close()
		return nil, statusBytes(502, "Bad Gateway", map[string]string{"X-Scrape-Guard": "SCRAPE_FAILED"})
	}
	if res.StatusCode != 200 {
		conn.Close()
		headers := map[string]string{}
		for name := range res.Header {
			if strings.HasPrefix(strings.ToLower(name), "x-scrape-") {
				headers[name] = res.Header.Get(name)
			}
		}
		return nil, statusBytes(res.StatusCode, strings.TrimSpace(strings.TrimPrefix(res.Status, fmt.Sprint(res.StatusCode))), headers)
	}
	return &bufferedConn{Conn: conn, r: br}, nil
}

// handshake is the TLS handshake with the site, as the shipped Chromium does it.
func (r *relay) handshake(conn net.Conn, host string, insecure bool) (*utls.UConn, error) {
	spec, err := chromeSpec()
	if err != nil {
		return nil, err
	}
	uc := utls.UClient(conn, &utls.Config{
		// An IP literal is verified against the certificate's IP addresses and sent without SNI, as Chromium does.
		ServerName:          strings.Trim(host, "[]"),
		RootCAs:             r.roots,
		InsecureSkipVerify:  insecure,
		ApplicationSettings: map[string][]byte{"h2": chromeH2Settings},
	}, utls.HelloCustom)
	if err := uc.ApplyPreset(&spec); err != nil {
		return nil, err
	}
	if err := uc.Handshake(); err != nil {
		return nil, err
	}
	return uc, nil
}

// pipe copies both ways until either side ends, then closes both.
func pipe(a, b net.Conn) {
	var once sync.Once
	done := func() {
		once.Do(func() {
			a.Close()
			b.Close()
		})
	}
	go func() {
		_, _ = io.Copy(a, b)
		done()
	}()
	_, _ = io.Copy(b, a)
	done()
}

type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (b *bufferedConn) Read(p []byte) (int, error) { return b.r.Read(p) }

func headerSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e {
			return ' '
		}
		return r
	}, s)
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}

func statusBytes(code int, reason string, headers map[string]string) []byte {
	var sb strings.Builder
	fmt.Fprintf(&sb, "HTTP/1.1 %d %s\r\n", code, headerSafe(reason))
	for k, v := range headers {
		fmt.Fprintf(&sb, "%s: %s\r\n", k, headerSafe(v))
	}
	if code != 200 {
		sb.WriteString("Content-Length: 0\r\n")
	}
	sb.WriteString("\r\n")
	return []byte(sb.String())
}

func writeStatus(c net.Conn, code int, reason string, headers map[string]string) {
	writeRaw(c, statusBytes(code, reason, headers))
}

func writeRaw(c net.Conn, b []byte) { _, _ = c.Write(b) }

// TLS alert descriptions (RFC 8446 section 6).
const (
	alertHandshakeFailure   = 40
	alertBadCertificate     = 42
	alertCertificateExpired = 45
	alertUnknownCA          = 48
)

// alertFor names the site handshake's failure for the caller: an untrusted, expired or
// misnamed certificate, or any other handshake failure.
func alertFor(err error) byte {
	var unknown x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	var hostname x509.HostnameError
	switch {
	case errors.As(err, &unknown):
		return alertUnknownCA
	case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
		return alertCertificateExpired
	case errors.As(err, &invalid), errors.As(err, &hostname):
		return alertBadCertificate
	default:
		var verify *utls.CertificateVerificationError
		if errors.As(err, &verify) {
			return alertBadCertificate
		}
		return alertHandshakeFailure
	}
}

// refuseHandshake reads the caller's ClientHello record (so closing does not reset the connection
// before the caller reads the alert) and answers it with a fatal alert.
func refuseHandshake(br *bufio.Reader, c net.Conn, description byte) {
	header := make([]byte, 5)
	if _, err := io.ReadFull(br, header); err == nil {
		_, _ = io.CopyN(io.Discard, br, int64(header[3])<<8|int64(header[4]))
	}
	_, _ = c.Write([]byte{0x15, 0x03, 0x03, 0x00, 0x02, 0x02, description})
}
