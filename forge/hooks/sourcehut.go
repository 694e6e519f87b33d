package hooks

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io/fs"

	"go.yaml.in/yaml/v3"

	"github.com/hearthforge/hearth/forge"
)

// FileReader reads a file of a repository at a commit, for the build
// manifest of sourcehut_builds hooks (the wiring reads it through the git
// store, as the contents API does).
type FileReader interface {
	// ReadFile returns the content of the blob at path in rev;
	// forge.ErrNotFound when there is none (or it is not a file).
	ReadFile(ctx context.Context, repo forge.ID, rev, path string) ([]byte, error)
}

// maxManifest bounds the build manifest read (sourcehut's manifests are
// small; a larger file is refused as undecodable).
const maxManifest = 1 << 20

// sourcehutQuery is the GraphQL mutation Forgejo submits to builds.sr.ht
// (services/webhook/sourcehut/builds.go).
const sourcehutQuery = `mutation (
	$manifest: String!
	$tags: [String!]
	$note: String!
	$secrets: Boolean!
	$execute: Boolean!
	$visibility: Visibility!
) {
	submit(
		manifest: $manifest
		tags: $tags
		note: $note
		secrets: $secrets
		execute: $execute
		visibility: $visibility
	) {
		id
	}
}`

// SourcehutVariables are the variables of the submit mutation
// (https://man.sr.ht/builds.sr.ht/graphql.md).
type SourcehutVariables struct {
	Manifest   string   `json:"manifest"`
	Tags       []string `json:"tags"`
	Note       string   `json:"note"`
	Secrets    bool     `json:"secrets"`
	Execute    bool     `json:"execute"`
	Visibility string   `json:"visibility"`
}

// SourcehutPayload is the GraphQL request body of a sourcehut_builds
// delivery: the query with its variables, or only Error when the manifest
// could not be read (Forgejo sends that too, so the delivery log shows
// why).
type SourcehutPayload struct {
	Query     string              `json:"query,omitempty"`
	Error     string              `json:"error,omitempty"`
	Variables *SourcehutVariables `json:"variables,omitempty"`
}

// sourcehutRequest builds the delivery of t to the sourcehut_builds hook
// h: push and create events submit the manifest at the hook's
// manifest_path from the pushed commit, adjusted as Forgejo's
// adjustManifest; other events are not supported (forge.ErrInvalid, as
// Forgejo's ErrPayloadTypeNotSupported). The request carries the JSON
// body, its content type and the hook's Authorization header (Forgejo's
// NewJSONRequest without the default headers).
func (s *Service) sourcehutRequest(ctx context.Context, h *Hook, t *Task) (Request, error) {
	var repo *PayloadRepo
	var commit, ref, note string
	switch t.EventType {
	case "push":
		var p PushPayload
		if err := decodeEvent(t.Payload, &p, func() bool { return p.Repo != nil }); err != nil {
			return Request{}, err
		}
		repo, commit, ref = p.Repo, p.After, p.Ref
		if p.HeadCommit != nil {
			commit, note = p.HeadCommit.ID, p.HeadCommit.Message
		}
	case "create":
		var p CreatePayload
		if err := decodeEvent(t.Payload, &p, func() bool { return p.Repo != nil }); err != nil {
			return Request{}, err
		}
		_, short := RefKind(p.Ref)
		repo, commit, ref, note = p.Repo, p.SHA, p.Ref, p.RefType+" "+short+" created"
	default:
		return Request{}, forge.Errorf(forge.ErrInvalid, "hooks: sourcehut_builds: unsupported event: %s", t.EventType)
	}
	if s.cfg.Files == nil {
		return Request{}, forge.Errorf(forge.ErrInvalid, "hooks: sourcehut_builds: no repository reader configured")
	}
	path := h.Meta["manifest_path"]
	payload := SourcehutPayload{}
	manifest, err := s.sourcehutManifest(ctx, repo, commit, ref, path)
	if err != nil {
		// Forgejo: the reason is sent (and so logged) in place of the
		// build.
		payload.Error = fmt.Sprintf("%s:%s %s", repo.FullName, ref, err.Error())
	} else {
		typ, short := RefKind(ref)
		payload.Query = sourcehutQuery
		payload.Variables = &SourcehutVariables{Manifest: string(manifest), Tags: []string{repo.FullName, typ + "/" + short, path},
			Note: note, Secrets: h.Meta["secrets"] == "true", Execute: true, Visibility: cmp.Or(h.Meta["visibility"], "PRIVATE")}
	}
	body, err := marshalIndent(payload)
	if err != nil {
		return Request{}, err
	}
	hdr := map[string]string{"Content-Type": "application/json", "User-Agent": "Hearth-Webhook"}
	if h.AuthorizationHeader != "" {
		hdr["Authorization"] = h.AuthorizationHeader
	}
	return Request{Method: "POST", URL: h.URL, Header: hdr, Body: body}, nil
}

// sourcehutManifest reads the manifest at path in commit and adjusts it;
// its error is the message Forgejo shows the user.
func (s *Service) sourcehutManifest(ctx context.Context, repo *PayloadRepo, commit, ref, path string) ([]byte, error) {
	if !fs.ValidPath(path) {
		return nil, fmt.Errorf("could not open manifest %q", path)
	}
	data, err := s.cfg.Files.ReadFile(ctx, forge.ID(repo.ID), commit, path)
	if err != nil {
		s.log.Info("sourcehut_builds manifest not read", "repo", repo.FullName, "commit", commit, "path", path, "err", err)
		return nil, fmt.Errorf("could not open manifest %q", path)
	}
	if len(data) > maxManifest {
		return nil, fmt.Errorf("could not decode manifest %q", path)
	}
	return AdjustManifest(data, repo.CloneURL, commit, ref, s.cfg.RootURL, path)
}

// AdjustManifest is Forgejo's adjustManifest: the build manifest with
// BUILD_SUBMITTER, BUILD_SUBMITTER_URL and GIT_REF in its environment and
// the repository's source pinned to commit (the source equal to cloneURL
// gets "#commit", or cloneURL#commit is appended). Hearth serves no SSH:
// the HTTP clone URL is used for private repositories too, where Forgejo
// uses the SSH one. The error says the manifest does not decode.
func AdjustManifest(data []byte, cloneURL, commit, ref, rootURL, path string) ([]byte, error) {
	var manifest struct {
		Sources     []string             `yaml:"sources"`
		Environment map[string]string    `yaml:"environment"`
		Rest        map[string]yaml.Node `yaml:",inline"`
	}
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&manifest); err != nil {
		return nil, fmt.Errorf("could not decode manifest %q", path)
	}
	if manifest.Environment == nil {
		manifest.Environment = map[string]string{}
	}
	manifest.Environment["BUILD_SUBMITTER"] = "forgejo"
	manifest.Environment["BUILD_SUBMITTER_URL"] = rootURL
	manifest.Environment["GIT_REF"] = ref
	found := false
	for i, src := range manifest.Sources {
		if src == cloneURL {
			manifest.Sources[i] = src + "#" + commit
			found = true
			break
		}
	}
	if !found {
		manifest.Sources = append(manifest.Sources, cloneURL+"#"+commit)
	}
	return yaml.Marshal(manifest)
}
