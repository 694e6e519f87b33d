package main

import (
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBlobS3 runs forged with -blob s3://… against an S3-compatible server
// (gofakes3 over TLS, trusted through SSL_CERT_FILE) and credentials from
// the environment: an issue attachment's bytes land in the bucket under
// the prefix, come back through the API, and nothing is written to the
// data directory's blobs/. Bad -blob values fail the start clearly.
func TestBlobS3(t *testing.T) {
	t.Parallel()
	backend := s3mem.New()
	require.NoError(t, backend.CreateBucket("hearth"))
	srv := httptest.NewTLSServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	tmp := t.TempDir()
	ca := filepath.Join(tmp, "ca.pem")
	require.NoError(t, os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600))
	const secret = "forged-test-secret-key"
	env := map[string]string{"FORGED_ADMIN_PASSWORD": "rootpassword", "SSL_CERT_FILE": ca,
		"AWS_ACCESS_KEY_ID": "forged-test", "AWS_SECRET_ACCESS_KEY": secret}
	blobURL := "s3://hearth/forged?endpoint=" + u.Host + "&region=us-east-1"

	data := filepath.Join(tmp, "data")
	s := start(t, data, env, "-blob", blobURL)
	root := func(c call) call { c.user, c.pass = "root", "rootpassword"; return c }
	r := s.do(t, root(call{method: "POST", path: "/api/v1/user/repos", body: map[string]any{"name": "p"}}))
	require.Equal(t, http.StatusCreated, r.status, "%s", r.raw)
	r = s.do(t, root(call{method: "POST", path: "/api/v1/repos/root/p/issues", body: map[string]any{"title": "t"}}))
	require.Equal(t, http.StatusCreated, r.status, "%s", r.raw)
	up := "--b\r\nContent-Disposition: form-data; name=\"attachment\"; filename=\"a.txt\"\r\n\r\nbytes kept in S3\r\n--b--\r\n"
	r = s.do(t, root(call{method: "POST", path: "/api/v1/repos/root/p/issues/1/assets", body: up,
		header: map[string]string{"Content-Type": "multipart/form-data; boundary=b"}}))
	require.Equal(t, http.StatusCreated, r.status, "%s", r.raw)
	uuid := r.body["uuid"].(string)

	obj, err := backend.HeadObject("hearth", "forged/"+uuid)
	require.NoError(t, err, "the attachment is an object under the prefix")
	assert.EqualValues(t, len("bytes kept in S3"), obj.Size)
	res, err := http.Get(s.url + "/attachments/" + uuid)
	require.NoError(t, err)
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", body)
	assert.Equal(t, "bytes kept in S3", string(body))
	_, err = os.Stat(filepath.Join(data, "blobs"))
	assert.ErrorIs(t, err, os.ErrNotExist, "no local blob directory with -blob s3://")
	assert.NotContains(t, s.logs.String(), secret)

	for _, bad := range []struct {
		env  map[string]string
		blob string
		want string
	}{
		{env, "/var/lib/blobs", "-blob takes an s3:// URL"},
		{env, "s3://ab", "invalid s3 bucket name"},
		{env, "s3://forged-test:" + secret + "@hearth", "credentials do not belong in the s3 URL"},
		{env, strings.Replace(blobURL, "hearth", "absent", 1), `bucket "absent" does not exist`},
		{map[string]string{"FORGED_ADMIN_PASSWORD": "rootpassword", "SSL_CERT_FILE": ca}, blobURL, "AWS_ACCESS_KEY_ID"},
	} {
		err := run(t.Context(), []string{"-addr", "127.0.0.1:0", "-data", filepath.Join(tmp, "bad"), "-blob", bad.blob},
			func(k string) string { return bad.env[k] }, io.Discard, io.Discard, nil)
		require.Error(t, err, bad.blob)
		assert.Contains(t, err.Error(), bad.want, bad.blob)
		assert.NotContains(t, err.Error(), secret, bad.blob)
	}
}
