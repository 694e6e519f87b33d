// Package hookhttp is the HTTP transport of webhook deliveries: a
// hooks.Sender whose connections obey a hooks.AddressPolicy, checked on
// the address actually dialled (after DNS resolution, in a net.Dialer
// Control hook), so a name that resolves to a refused address is refused
// however it was written.
package hookhttp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"

	"github.com/hearthforge/hearth/forge/hooks"
)

// maxBody is how much of a receiver's answer is kept in the log.
const maxBody = 4 << 10

// Sender delivers webhooks over HTTP. The zero value is not ready: use
// New.
type Sender struct {
	client *http.Client
	policy hooks.AddressPolicy
}

var _ hooks.Sender = (*Sender)(nil)

// New returns a Sender that reaches only what policy allows. Redirects are
// not followed (a redirect answer is logged as the delivery's answer), and
// no proxy from the environment is used.
func New(policy hooks.AddressPolicy) *Sender {
	s := &Sender{policy: policy}
	d := &net.Dialer{Timeout: 30 * time.Second}
	tr := &http.Transport{
		Proxy:               nil,
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     90 * time.Second,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			dd := *d
			dd.Control = func(_, address string, _ syscall.RawConn) error {
				ap, err := netip.ParseAddrPort(address)
				if err != nil {
					return err
				}
				if !policy.Allows(host, ap.Addr()) {
					return fmt.Errorf("webhook: %s (%s) is not an allowed host", host, ap.Addr())
				}
				return nil
			}
			return dd.DialContext(ctx, network, addr)
		},
	}
	s.client = &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return s
}

// Send performs r within ctx.
func (s *Sender) Send(ctx context.Context, r hooks.Request) (hooks.Response, error) {
	if _, err := url.Parse(r.URL); err != nil {
		return hooks.Response{}, err
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, bytes.NewReader(r.Body))
	if err != nil {
		return hooks.Response{}, err
	}
	for k, v := range r.Header {
		req.Header.Set(k, v)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return hooks.Response{}, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	return hooks.Response{Status: resp.StatusCode, Body: string(b)}, nil
}
