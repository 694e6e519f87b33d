package blob_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/storage/blob"
)

func TestParseS3URL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		raw  string
		want blob.S3Config
		err  string // substring of the error; "" for success
	}{
		{raw: "s3://bucket", want: blob.S3Config{Endpoint: blob.DefaultS3Endpoint, Bucket: "bucket", Secure: true}},
		{raw: "s3://my.bucket-1/", want: blob.S3Config{Endpoint: blob.DefaultS3Endpoint, Bucket: "my.bucket-1", Secure: true}},
		{raw: "s3://hearth/blobs?endpoint=127.0.0.1:9000&region=us-east-1&secure=false",
			want: blob.S3Config{Endpoint: "127.0.0.1:9000", Bucket: "hearth", Prefix: "blobs/", Region: "us-east-1"}},
		{raw: "s3://hearth/a/b/?endpoint=minio.internal&secure=true",
			want: blob.S3Config{Endpoint: "minio.internal", Bucket: "hearth", Prefix: "a/b/", Secure: true}},
		{raw: "s3://hearth/x?endpoint=%5B::1%5D:9000", want: blob.S3Config{Endpoint: "[::1]:9000", Bucket: "hearth", Prefix: "x/", Secure: true}},
		{raw: "S3://hearth", want: blob.S3Config{Endpoint: blob.DefaultS3Endpoint, Bucket: "hearth", Secure: true}},

		{raw: "", err: "starts with s3://"},
		{raw: "https://hearth", err: "starts with s3://"},
		{raw: "/data/blobs", err: "starts with s3://"},
		{raw: "s3:hearth", err: "malformed"},
		{raw: "s3://hearth#frag", err: "malformed"},
		{raw: "s3://AKIAEXAMPLE:wJalrXUtnFEMI@hearth/p", err: "credentials do not belong in the s3 URL"},
		{raw: "s3://AKIAEXAMPLE@hearth", err: "credentials do not belong"},
		{raw: "s3://ab", err: "invalid s3 bucket name"},
		{raw: "s3://Hearth", err: "invalid s3 bucket name"},
		{raw: "s3://-hearth", err: "invalid s3 bucket name"},
		{raw: "s3://hear..th", err: "invalid s3 bucket name"},
		{raw: "s3://hearth:9000", err: "invalid s3 bucket name"},
		{raw: "s3://" + strings.Repeat("a", 64), err: "invalid s3 bucket name"},
		{raw: "s3://hearth/a//b", err: "invalid s3 prefix"},
		{raw: "s3://hearth/a/../b", err: "invalid s3 prefix"},
		{raw: "s3://hearth/a%5Cb", err: "invalid s3 prefix"},
		{raw: "s3://hearth/a%00b", err: "invalid s3 prefix"},
		{raw: "s3://hearth?endpoint=", err: "host or host:port"},
		{raw: "s3://hearth?endpoint=http://minio:9000", err: "host or host:port"},
		{raw: "s3://hearth?endpoint=minio:9000/path", err: "host or host:port"},
		{raw: "s3://hearth?endpoint=key:secret@minio", err: "host or host:port"},
		{raw: "s3://hearth?endpoint=minio:99999", err: "port must be"},
		{raw: "s3://hearth?endpoint=minio:", err: "host or host:port"},
		{raw: "s3://hearth?secure=maybe", err: "not true or false"},
		{raw: "s3://hearth?region=us%20east", err: "invalid s3 region"},
		{raw: "s3://hearth?region=a&region=b", err: "given 2 times"},
		{raw: "s3://hearth?access_key=AKIA", err: `unknown s3 URL parameter "access_key"`},
		{raw: "s3://hearth?%zz", err: "malformed s3 URL query"},
	} {
		got, err := blob.ParseS3URL(tc.raw)
		if tc.err != "" {
			require.ErrorIs(t, err, forge.ErrInvalid, tc.raw)
			assert.Contains(t, err.Error(), tc.err, tc.raw)
			continue
		}
		require.NoError(t, err, tc.raw)
		assert.Equal(t, tc.want, got, tc.raw)
		again, err := blob.ParseS3URL(got.URL())
		require.NoError(t, err, got.URL())
		assert.Equal(t, got, again, "URL() reads back the same (%s)", got.URL())
	}
}

// Secrets put in the URL by mistake never come back in an error.
func TestParseS3URLNeverEchoesSecrets(t *testing.T) {
	t.Parallel()
	const secret = "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY"
	for _, raw := range []string{
		"s3://AKIA:" + secret + "@hearth/p",
		"s3://AKIA:" + secret + "@hearth:bad port/p",
		"s3://AKIA:" + secret + "@hearth/%zz",
		"s3://hearth?" + secret + "=1",
		"s3://hearth?" + secret + "=1&" + secret + "=2",
		"s3://AKIA:" + secret + "@bad..bucket",
		"s3://hearth?endpoint=AKIA:" + secret + "@minio",
	} {
		_, err := blob.ParseS3URL(raw)
		require.Error(t, err, raw)
		assert.NotContains(t, err.Error(), secret, raw)
	}
}

func TestS3ConfigCredentialsFrom(t *testing.T) {
	t.Parallel()
	env := map[string]string{blob.EnvS3AccessKey: "AKIA", blob.EnvS3SecretKey: "s3cr3t", blob.EnvS3SessionToken: "tok"}
	var c blob.S3Config
	c.CredentialsFrom(func(k string) string { return env[k] })
	assert.Equal(t, [3]string{"AKIA", "s3cr3t", "tok"}, [3]string{c.AccessKey, c.SecretKey, c.SessionToken})
	assert.NotContains(t, c.URL(), "s3cr3t")
	assert.NotContains(t, c.URL(), "AKIA")
}

// FuzzParseS3URL: no input panics; what parses is a valid configuration
// that URL() writes back to the same; an error never repeats the password
// of the URL's user information.
func FuzzParseS3URL(f *testing.F) {
	for _, s := range []string{
		"s3://bucket", "s3://hearth/blobs?endpoint=127.0.0.1:9000&region=us-east-1&secure=false",
		"s3://AKIA:secretsecret@hearth/p", "s3://hearth/a/../b", "s3://hearth?endpoint=%5B::1%5D:9000",
		"s3://hearth/%00?secure=1", "s3://hearth?region=a&region=b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		c, err := blob.ParseS3URL(raw)
		if err != nil {
			if !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("%q: error %v is not forge.ErrInvalid", raw, err)
			}
			if u, perr := url.Parse(raw); perr == nil && u.User != nil {
				if p, ok := u.User.Password(); ok && len(p) >= 6 && strings.Contains(err.Error(), p) {
					t.Fatalf("%q: error %q repeats the password", raw, err)
				}
			}
			return
		}
		if c.Bucket == "" || c.Endpoint == "" || (c.Prefix != "" && !strings.HasSuffix(c.Prefix, "/")) ||
			strings.HasPrefix(c.Prefix, "/") || strings.Contains(c.Prefix, "//") {
			t.Fatalf("%q: parsed to an invalid configuration %+v", raw, c)
		}
		if c.AccessKey != "" || c.SecretKey != "" {
			t.Fatalf("%q: credentials read from the URL", raw)
		}
		again, err := blob.ParseS3URL(c.URL())
		if err != nil || again != c {
			t.Fatalf("%q: URL() %q reads back as %+v, %v; want %+v", raw, c.URL(), again, err, c)
		}
	})
}
