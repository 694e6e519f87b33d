package memgit

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/hearthforge/hearth/forge"
)

// Patch writes the change of commit rev against its first parent as a
// "diff" (go-git's unified diff in git's format) or a "patch" (that diff
// with a format-patch style mail header) to w; forge.ErrNotFound for an
// unknown kind. See the package comment for the differences from git.
func (s *Store) Patch(ctx context.Context, id forge.ID, rev, kind string, w io.Writer) error {
	r, err := s.get(ctx, id)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	r.mu.RLock()
	err = r.patch(rev, kind, &buf)
	r.mu.RUnlock()
	if err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

func (r *repo) patch(rev, kind string, w *bytes.Buffer) error {
	h, err := r.resolve(rev)
	if err != nil {
		return err
	}
	if kind != "diff" && kind != "patch" {
		return forge.Errorf(forge.ErrNotFound, "unknown diff type %q", kind)
	}
	c, err := object.GetCommit(r.st, h)
	if err != nil {
		return err
	}
	changes, err := r.changes(c)
	if err != nil {
		return err
	}
	p, err := changes.Patch()
	if err != nil {
		return err
	}
	var diff bytes.Buffer
	if err := p.Encode(&diff); err != nil {
		return err
	}
	if kind == "patch" {
		subject, body, _ := strings.Cut(strings.TrimSpace(c.Message), "\n\n")
		fmt.Fprintf(w, "From %s Mon Sep 17 00:00:00 2001\nFrom: %s <%s>\nDate: %s\nSubject: [PATCH] %s\n\n",
			c.Hash, c.Author.Name, c.Author.Email, c.Author.When.Format("Mon, 2 Jan 2006 15:04:05 -0700"),
			strings.Join(strings.Fields(subject), " "))
		if body = strings.TrimSpace(body); body != "" {
			w.WriteString(body + "\n")
		}
		w.WriteString("---\n")
		if err := r.diffstat(w, changes); err != nil {
			return err
		}
		w.WriteString("\n")
	}
	w.Write(abbreviateIndex(diff.Bytes()))
	if kind == "patch" {
		w.WriteString("-- \nmemgit\n\n")
	}
	return nil
}

// emptyBlob is the id of the empty blob.
const emptyBlob = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"

// abbreviateIndex shortens the ids of go-git's "index <old>..<new>" lines
// to git's seven characters, and drops the "Binary files ... differ" line
// go-git writes for an added or removed empty file (git writes none). A
// content line never starts with "index " or "Binary files ": it starts with
// " ", "+" or "-".
func abbreviateIndex(diff []byte) []byte {
	lines := bytes.SplitAfter(diff, []byte("\n"))
	out := make([][]byte, 0, len(lines))
	empty := false // the last index line was between empty blobs
	for _, l := range lines {
		if empty && bytes.HasPrefix(l, []byte("Binary files ")) {
			empty = false
			continue
		}
		rest, ok := bytes.CutPrefix(l, []byte("index "))
		if !ok {
			out = append(out, l)
			continue
		}
		ids, mode, _ := bytes.Cut(rest, []byte(" "))
		from, to, ok := bytes.Cut(bytes.TrimSuffix(ids, []byte("\n")), []byte(".."))
		if !ok || len(from) < 7 || len(to) < 7 {
			out = append(out, l)
			continue
		}
		isEmpty := func(id []byte) bool {
			return string(id) == emptyBlob || string(id) == plumbing.ZeroHash.String()
		}
		empty = isEmpty(from) && isEmpty(to)
		line := "index " + string(from[:7]) + ".." + string(to[:7])
		if len(mode) > 0 {
			line += " " + string(mode)
		} else {
			line += "\n"
		}
		out = append(out, []byte(line))
	}
	return bytes.Join(out, nil)
}

// diffstat writes format-patch's summary of changes: one line per file
// (" name | n ++--", " name | Bin 3 -> 5 bytes"), the totals, and the
// created and deleted files, laid out as git's show_stats does for 72
// columns, graph scaling included.
func (r *repo) diffstat(w *bytes.Buffer, changes object.Changes) error {
	stats, err := r.fileStats(changes)
	if err != nil {
		return err
	}
	if len(stats) == 0 {
		return nil
	}
	const width = 72
	nameWidth, numberWidth, binWidth, maxChange, adds, dels := 0, 0, 0, 0, 0, 0
	for _, s := range stats {
		nameWidth = max(nameWidth, len(s.Filename))
		if s.Binary {
			binWidth = max(binWidth, 14+len(fmt.Sprint(s.NewSize))+len(fmt.Sprint(s.OldSize)))
			numberWidth = 3 // counts align with "Bin"
			continue
		}
		maxChange = max(maxChange, s.Additions+s.Deletions)
		adds += s.Additions
		dels += s.Deletions
	}
	numberWidth = max(numberWidth, len(fmt.Sprint(maxChange)))
	graphWidth := maxChange
	if maxChange+4 <= binWidth {
		graphWidth = binWidth - 4
	}
	if nameWidth+numberWidth+6+graphWidth > width {
		if graphWidth > width*3/8-numberWidth-6 {
			graphWidth = max(width*3/8-numberWidth-6, 6)
		}
		if nameWidth > width-numberWidth-6-graphWidth {
			nameWidth = width - numberWidth - 6 - graphWidth
		} else {
			graphWidth = width - numberWidth - 6 - nameWidth
		}
	}
	// scale is git's scale_linear.
	scale := func(n int) int {
		if n == 0 {
			return 0
		}
		return 1 + n*(graphWidth-1)/maxChange
	}
	var summary strings.Builder
	for _, s := range stats {
		name := s.Filename
		if len(name) > nameWidth {
			name = "..." + name[len(name)-nameWidth+3:]
		}
		switch s.Status {
		case "added":
			fmt.Fprintf(&summary, " create mode %s %s\n", s.Mode, s.Filename)
		case "removed":
			fmt.Fprintf(&summary, " delete mode %s %s\n", s.Mode, s.Filename)
		}
		if s.Binary {
			fmt.Fprintf(w, " %-*s | %*s", nameWidth, name, numberWidth, "Bin")
			if s.OldSize == 0 && s.NewSize == 0 {
				w.WriteString("\n")
			} else {
				fmt.Fprintf(w, " %d -> %d bytes\n", s.OldSize, s.NewSize)
			}
			continue
		}
		total := s.Additions + s.Deletions
		sep := ""
		if total > 0 {
			sep = " "
		}
		add, del := s.Additions, s.Deletions
		if graphWidth <= maxChange {
			scaled := scale(total)
			if scaled < 2 && add > 0 && del > 0 {
				scaled = 2
			}
			if add < del {
				add = scale(add)
				del = scaled - add
			} else {
				del = scale(del)
				add = scaled - del
			}
		}
		fmt.Fprintf(w, " %-*s | %*d%s%s%s\n", nameWidth, name, numberWidth, total, sep,
			strings.Repeat("+", add), strings.Repeat("-", del))
	}
	fmt.Fprintf(w, " %d file%s changed", len(stats), plural(len(stats)))
	if adds > 0 || dels == 0 {
		fmt.Fprintf(w, ", %d insertion%s(+)", adds, plural(adds))
	}
	if dels > 0 || adds == 0 {
		fmt.Fprintf(w, ", %d deletion%s(-)", dels, plural(dels))
	}
	w.WriteString("\n" + summary.String())
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Archive writes a "zip" or "tar.gz" archive of rev to w, its files under
// "<prefix>/" (forge.ErrInvalid for another format).
func (s *Store) Archive(ctx context.Context, id forge.ID, rev, format, prefix string, w io.Writer) error {
	if format != "zip" && format != "tar.gz" {
		return forge.Errorf(forge.ErrInvalid, "unknown archive format %q", format)
	}
	r, err := s.get(ctx, id)
	if err != nil {
		return err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	h, err := r.resolve(rev)
	if err != nil {
		return err
	}
	c, err := object.GetCommit(r.st, h)
	if err != nil {
		return err
	}
	a := &archiver{r: r, when: c.Committer.When}
	// git names the commit in the archive's comment.
	if format == "zip" {
		a.zip = zip.NewWriter(w)
		if err := a.zip.SetComment(h.String()); err != nil {
			return err
		}
	} else {
		a.gz = gzip.NewWriter(w)
		a.tar = tar.NewWriter(a.gz)
		if err := a.tar.WriteHeader(&tar.Header{Typeflag: tar.TypeXGlobalHeader, Name: "pax_global_header",
			PAXRecords: map[string]string{"comment": h.String()}}); err != nil {
			return err
		}
	}
	root := ""
	if prefix != "" {
		root = strings.Trim(prefix, "/") + "/"
		if err := a.dir(root); err != nil {
			return err
		}
	}
	if err := a.tree(c.TreeHash, root); err != nil {
		return err
	}
	if a.zip != nil {
		return a.zip.Close()
	}
	if err := a.tar.Close(); err != nil {
		return err
	}
	return a.gz.Close()
}

type archiver struct {
	r    *repo
	when time.Time
	zip  *zip.Writer
	gz   *gzip.Writer
	tar  *tar.Writer
}

func (a *archiver) tree(h plumbing.Hash, dir string) error {
	t, err := object.GetTree(a.r.st, h)
	if err != nil {
		return err
	}
	for _, e := range t.Entries {
		name := dir + e.Name
		switch e.Mode {
		case filemode.Dir:
			if err := a.dir(name + "/"); err != nil {
				return err
			}
			if err := a.tree(e.Hash, name+"/"); err != nil {
				return err
			}
		case filemode.Submodule: // git archive writes an empty directory
			if err := a.dir(name + "/"); err != nil {
				return err
			}
		default:
			obj, err := a.r.st.EncodedObject(plumbing.BlobObject, e.Hash)
			if err != nil {
				return err
			}
			content, err := readAll(obj)
			if err != nil {
				return err
			}
			if err := a.file(name, e.Mode, content); err != nil {
				return err
			}
		}
	}
	return nil
}

// Entries carry the modes, owners and times git archive gives them: in tar
// files 0664 (executables 0775), directories 0775, owner root; in zip
// MS-DOS attributes for plain files and directories, Unix ones for
// executables and symlinks.

func (a *archiver) dir(name string) error {
	if a.zip != nil {
		_, err := a.zip.CreateHeader(&zip.FileHeader{Name: name, Modified: a.when, ExternalAttrs: 0x10})
		return err
	}
	return a.tar.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name, Mode: 0o775, ModTime: a.when,
		Uname: "root", Gname: "root"})
}

func (a *archiver) file(name string, mode filemode.FileMode, content []byte) error {
	if a.zip != nil {
		hdr := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: a.when}
		switch mode {
		case filemode.Executable:
			hdr.CreatorVersion, hdr.ExternalAttrs = 3<<8, 0o100755<<16
		case filemode.Symlink:
			hdr.CreatorVersion, hdr.ExternalAttrs = 3<<8, 0o120777<<16
		}
		fw, err := a.zip.CreateHeader(hdr)
		if err != nil {
			return err
		}
		_, err = fw.Write(content)
		return err
	}
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: name, Size: int64(len(content)), Mode: 0o664, ModTime: a.when,
		Uname: "root", Gname: "root"}
	switch mode {
	case filemode.Executable:
		hdr.Mode = 0o775
	case filemode.Symlink:
		hdr.Typeflag, hdr.Linkname, hdr.Size, hdr.Mode = tar.TypeSymlink, string(content), 0, 0o777
	}
	if err := a.tar.WriteHeader(hdr); err != nil || hdr.Size == 0 {
		return err
	}
	_, err := a.tar.Write(content)
	return err
}
