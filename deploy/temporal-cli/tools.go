//go:build tools

// Package tools pins the official Temporal CLI (dev server + UI) so that
// `go build github.com/temporalio/cli/cmd/temporal` resolves from the module proxy.
package tools

import _ "github.com/temporalio/cli/cmd/temporal"
