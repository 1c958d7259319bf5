// Package httpserve makes the http.Servers of the module's commands (bt
// play, battleship -serve), with the limits that every one of them sets.
package httpserve

import (
	"net/http"
	"time"
)

// The limits of a server's connections. Variables, so that tests can
// shorten them; set them before New.
var (
	// HeaderTimeout is the most time a client has to send a request's
	// headers, from the moment the connection opens or its previous
	// request ends.
	HeaderTimeout = 10 * time.Second

	// IdleTimeout is the most time a kept-alive connection waits for
	// its next request.
	IdleTimeout = 30 * time.Second
)

// MaxHeaderBytes bounds the headers of a request.
const MaxHeaderBytes = 64 << 10

// New returns a server of h with the limits above.
func New(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: HeaderTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
	}
}
