package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/storage/blob"
)

// parseBlobFlag checks -blob: empty (the data directory's blobs/) or an
// s3:// URL (blob.ParseS3URL).
func parseBlobFlag(v string) error {
	if v == "" {
		return nil
	}
	if !strings.HasPrefix(strings.ToLower(v), "s3://") {
		return errors.New("-blob takes an s3:// URL (empty: the data directory's blobs/)")
	}
	if _, err := blob.ParseS3URL(v); err != nil {
		return fmt.Errorf("-blob: %w", err)
	}
	return nil
}

// openBlobs opens the blob store -blob names: <data>/blobs when empty,
// else the S3 bucket of the URL with credentials from the environment
// (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, optional AWS_SESSION_TOKEN;
// never from flags, which show in ps). SSL_CERT_FILE, when set, is the
// certificate bundle trusted for the endpoint (a private CA), as Go reads
// it for every TLS client.
func openBlobs(ctx context.Context, spec, data string, getenv func(string) string, log *slog.Logger) (site.Blobs, error) {
	if spec == "" {
		return blob.OpenDir(filepath.Join(data, "blobs"))
	}
	cfg, err := blob.ParseS3URL(spec)
	if err != nil {
		return nil, fmt.Errorf("-blob: %w", err)
	}
	cfg.CredentialsFrom(getenv)
	if f := getenv("SSL_CERT_FILE"); f != "" && cfg.Secure {
		pem, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("SSL_CERT_FILE: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("SSL_CERT_FILE %s holds no PEM certificate", f)
		}
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
		cfg.Transport = tr
	}
	s, err := blob.OpenS3(ctx, cfg)
	if err != nil {
		return nil, err
	}
	log.Info("blob storage", "s3", cfg.URL())
	return s, nil
}
