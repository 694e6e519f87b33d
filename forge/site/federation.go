package site

import (
	"context"
	"crypto"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"time"

	"github.com/hearthforge/hearth/forge/federation"
	"github.com/hearthforge/hearth/httpapi"
)

// newFederation builds the federation service cfg asks for: keys in
// Dir/federation (in memory without Dir), remote keys fetched with
// cfg.FederationClient, the software version Forgejo's API reports.
func newFederation(cfg Config, db Store) (*federation.Service, error) {
	var keys federation.Keys = &federation.MemoryKeys{}
	if cfg.Dir != "" {
		keys = &federation.KeyDir{Dir: filepath.Join(cfg.Dir, "federation")}
	}
	return federation.New(federation.Config{Enabled: cfg.Federation, Store: db.Federation(), Keys: keys,
		Resolver: RemoteKeys{Client: cfg.FederationClient}, AppURL: cfg.RootURL, Version: httpapi.ForgejoVersion + "+hearth-" + httpapi.Version,
		Clock: cfg.Clock})
}

// RemoteKeys finds a remote actor's public key by fetching the document
// its key id names, as Forgejo's ReqHTTPSignature does
// (federation.KeyResolver): a GET of the key id's URL (without its
// fragment) asking for ActivityStreams, whose publicKey has that id.
type RemoteKeys struct {
	// Client fetches the documents. Nil: a client with a 10-second
	// timeout.
	Client *http.Client
	// MaxBytes caps a fetched document; 0 is 4 MiB (Forgejo's
	// [federation] MAX_SIZE).
	MaxBytes int64
}

// remoteActor is the part of an actor document RemoteKeys reads.
type remoteActor struct {
	ID        string `json:"id"`
	PublicKey struct {
		ID           string `json:"id"`
		Owner        string `json:"owner"`
		PublicKeyPem string `json:"publicKeyPem"`
	} `json:"publicKey"`
}

// PublicKey fetches keyID's document and returns its PKIX public key. An
// id that is no http(s) URL, a failed fetch, a document whose publicKey
// is not keyID, or a key that does not parse is an error.
func (k RemoteKeys) PublicKey(ctx context.Context, keyID string) (crypto.PublicKey, error) {
	u, err := url.Parse(keyID)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("key id %q is no http(s) URL", keyID)
	}
	u.Fragment = ""
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", `application/ld+json; profile="https://www.w3.org/ns/activitystreams"`)
	client := k.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch %s: %s", u, res.Status)
	}
	limit := k.MaxBytes
	if limit <= 0 {
		limit = 4 << 20
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, limit))
	if err != nil {
		return nil, err
	}
	var doc remoteActor
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("actor %s: %w", u, err)
	}
	if doc.PublicKey.ID != keyID {
		return nil, fmt.Errorf("actor %s publishes key %q, not %q", u, doc.PublicKey.ID, keyID)
	}
	block, _ := pem.Decode([]byte(doc.PublicKey.PublicKeyPem))
	if block == nil {
		return nil, errors.New("actor key is not PEM")
	}
	return x509.ParsePKIXPublicKey(block.Bytes)
}
