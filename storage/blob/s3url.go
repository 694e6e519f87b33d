package blob

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// The environment variables a program reads S3 credentials from
// (S3Config.CredentialsFrom): the AWS names every S3 tool understands.
// Credentials never come from the URL or from flags, which show in ps.
const (
	EnvS3AccessKey    = "AWS_ACCESS_KEY_ID"
	EnvS3SecretKey    = "AWS_SECRET_ACCESS_KEY"
	EnvS3SessionToken = "AWS_SESSION_TOKEN" // optional, for temporary credentials
)

// DefaultS3Endpoint is the endpoint of a URL without ?endpoint=.
const DefaultS3Endpoint = "s3.amazonaws.com"

// S3Config configures OpenS3. ParseS3URL fills the location from a URL;
// the credentials come from CredentialsFrom or the caller.
type S3Config struct {
	// Endpoint is the server as host or host:port, without a scheme.
	Endpoint string
	// Bucket holds the blobs; it must exist.
	Bucket string
	// Prefix is prepended to every key: empty or ending in "/", so one
	// bucket can hold several stores.
	Prefix string
	// Region is the bucket's region; empty lets the client ask the server.
	Region string
	// Secure selects HTTPS.
	Secure bool
	// AccessKey, SecretKey and SessionToken sign requests. They never
	// appear in errors or in URL.
	AccessKey, SecretKey, SessionToken string
	// PartSize is the part size of multipart uploads; 0 is
	// DefaultS3PartSize, below 5 MiB is refused.
	PartSize uint64
	// Transport carries the requests; nil is the client's default (tests
	// pass an httptest TLS server's).
	Transport http.RoundTripper
}

// CredentialsFrom sets the credentials from getenv (os.Getenv in a
// program): EnvS3AccessKey, EnvS3SecretKey and EnvS3SessionToken.
func (c *S3Config) CredentialsFrom(getenv func(string) string) {
	c.AccessKey, c.SecretKey, c.SessionToken = getenv(EnvS3AccessKey), getenv(EnvS3SecretKey), getenv(EnvS3SessionToken)
}

// ParseS3URL reads s3://bucket/prefix?endpoint=host:port&region=R&secure=true|false.
// The path (optional) is the key prefix; endpoint defaults to
// DefaultS3Endpoint and secure to true. Returns forge.ErrInvalid for
// another scheme, an invalid bucket name or prefix, an unknown or repeated
// parameter, and credentials in the URL (refused, and never repeated in
// the error).
func ParseS3URL(raw string) (S3Config, error) {
	var c S3Config
	u, err := url.Parse(raw)
	if err != nil {
		// url.Error quotes the whole URL, which may hold a secret.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		if strings.Contains(raw, "@") {
			return c, forge.Errorf(forge.ErrInvalid, "blob: malformed s3 URL")
		}
		return c, forge.Errorf(forge.ErrInvalid, "blob: malformed s3 URL: %v", err)
	}
	if u.User != nil {
		return c, forge.Errorf(forge.ErrInvalid, "blob: credentials do not belong in the s3 URL; set %s and %s", EnvS3AccessKey, EnvS3SecretKey)
	}
	if u.Scheme != "s3" {
		return c, forge.Errorf(forge.ErrInvalid, "blob: an s3 URL starts with s3://")
	}
	if u.Opaque != "" || u.Fragment != "" || u.RawFragment != "" {
		return c, forge.Errorf(forge.ErrInvalid, "blob: malformed s3 URL (want s3://bucket/prefix?endpoint=host:port)")
	}
	c.Bucket = u.Host
	if err := checkBucket(c.Bucket); err != nil {
		return S3Config{}, err
	}
	if c.Prefix, err = cleanPrefix(u.Path); err != nil {
		return S3Config{}, err
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return S3Config{}, forge.Errorf(forge.ErrInvalid, "blob: malformed s3 URL query")
	}
	c.Endpoint, c.Secure = DefaultS3Endpoint, true
	for k, v := range q {
		if len(v) != 1 {
			return S3Config{}, forge.Errorf(forge.ErrInvalid, "blob: s3 URL parameter given %d times", len(v))
		}
		switch k {
		case "endpoint":
			if c.Endpoint, err = checkEndpoint(v[0]); err != nil {
				return S3Config{}, err
			}
		case "region":
			if c.Region = v[0]; !validRegion(c.Region) {
				return S3Config{}, forge.Errorf(forge.ErrInvalid, "blob: invalid s3 region %q", c.Region)
			}
		case "secure":
			if c.Secure, err = strconv.ParseBool(v[0]); err != nil {
				return S3Config{}, forge.Errorf(forge.ErrInvalid, "blob: s3 URL secure=%q is not true or false", v[0])
			}
		default:
			// Name a typo, but not something long enough to be a key
			// pasted in the wrong place.
			if len(k) > 24 || strings.Trim(k, "abcdefghijklmnopqrstuvwxyz_-") != "" {
				k = "…"
			}
			return S3Config{}, forge.Errorf(forge.ErrInvalid, "blob: unknown s3 URL parameter %q (endpoint, region, secure)", k)
		}
	}
	return c, nil
}

// URL is the configuration as ParseS3URL reads it, without credentials.
func (c S3Config) URL() string {
	q := url.Values{}
	q.Set("endpoint", c.Endpoint)
	if c.Region != "" {
		q.Set("region", c.Region)
	}
	q.Set("secure", strconv.FormatBool(c.Secure))
	u := url.URL{Scheme: "s3", Host: c.Bucket, Path: "/" + c.Prefix, RawQuery: q.Encode()}
	return u.String()
}

// validate checks what OpenS3 needs besides credentials.
func (c S3Config) validate() error {
	if err := checkBucket(c.Bucket); err != nil {
		return err
	}
	if _, err := checkEndpoint(c.Endpoint); err != nil {
		return err
	}
	if p, err := cleanPrefix(c.Prefix); err != nil || p != c.Prefix {
		return forge.Errorf(forge.ErrInvalid, "blob: s3 prefix %q must be empty or end in /", c.Prefix)
	}
	return nil
}

// checkBucket applies S3's bucket naming rules: 3 to 63 lower-case
// letters, digits, dots and hyphens, starting and ending with a letter or
// digit, without "..".
func checkBucket(b string) error {
	ok := len(b) >= 3 && len(b) <= 63 && !strings.Contains(b, "..") && alnum(b[0]) && alnum(b[len(b)-1])
	for i := 0; ok && i < len(b); i++ {
		ok = alnum(b[i]) || b[i] == '.' || b[i] == '-'
	}
	if !ok {
		return forge.Errorf(forge.ErrInvalid, "blob: invalid s3 bucket name %q (3-63 of a-z 0-9 . -)", b)
	}
	return nil
}

func alnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// cleanPrefix turns a URL path into a key prefix: "" or segments ending
// in "/". Empty, "." and ".." segments, backslashes and control
// characters are refused.
func cleanPrefix(p string) (string, error) {
	p = strings.TrimPrefix(p, "/")
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return "", nil
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." || strings.ContainsAny(seg, `\`) {
			return "", forge.Errorf(forge.ErrInvalid, "blob: invalid s3 prefix %q", p)
		}
		for _, r := range seg {
			if r < 0x20 || r == 0x7f {
				return "", forge.Errorf(forge.ErrInvalid, "blob: invalid s3 prefix %q", p)
			}
		}
	}
	return p + "/", nil
}

// checkEndpoint accepts host or host:port without scheme, path or
// credentials.
func checkEndpoint(e string) (string, error) {
	u, err := url.Parse("//" + e)
	if e == "" || err != nil || u.User != nil || u.Host != e || u.Path != "" || u.RawQuery != "" || u.Fragment != "" ||
		u.Hostname() == "" || strings.HasSuffix(e, ":") {
		return "", forge.Errorf(forge.ErrInvalid, "blob: s3 endpoint must be host or host:port")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return "", forge.Errorf(forge.ErrInvalid, "blob: s3 endpoint port must be 1-65535")
		}
	}
	return e, nil
}

func validRegion(r string) bool {
	if r == "" || len(r) > 64 {
		return false
	}
	for _, c := range []byte(r) {
		if !alnum(c) && c != '-' && c != '_' && !(c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}
