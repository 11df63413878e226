module scraper/deploy/tls-relay

go 1.25.0

require github.com/refraction-networking/utls v1.8.2

require (
	github.com/andybalholm/brotli v1.0.6 // indirect
	github.com/klauspost/compress v1.17.4 // indirect
	golang.org/x/crypto v0.36.0 // indirect
	golang.org/x/sys v0.31.0 // indirect
)
