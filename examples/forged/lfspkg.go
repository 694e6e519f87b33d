package main

import (
	"log/slog"

	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/quota"
)

// newLFSPackages returns Git LFS and the package registry over the
// database and blob directory, charged under q.
func newLFSPackages(db database, blobs blobStore, repoSvc *repos.Service, orgSvc *orgs.Service, q quota.Config,
	log *slog.Logger) (*lfs.Service, *packages.Service, error) {
	lfsSvc, err := lfs.New(lfs.Config{Store: db.LFS(), Blobs: blobs, Repos: repoSvc, Quota: q, Logger: log})
	if err != nil {
		return nil, nil, err
	}
	pkgSvc, err := packages.New(packages.Config{Store: db.Packages(), Blobs: blobs, Orgs: orgSvc, Repos: repoSvc,
		Quota: q, Logger: log})
	return lfsSvc, pkgSvc, err
}
