import {
  DeleteObjectsCommand,
  ListObjectVersionsCommand,
  type ListObjectVersionsCommandOutput,
  type ObjectIdentifier,
  type S3Client,
} from '@aws-sdk/client-s3';

/** A version listed for deletion. */
export interface ListedVersion {
  Key?: string | undefined;
  VersionId?: string | undefined;
  ETag?: string | undefined;
}

/**
 * Deletes every version (and delete marker) under `prefix` that `pick` chooses, 1,000 a call, and
 * returns how many: in a versioned bucket a plain delete only hides an object, and erasing a
 * document must remove it (the erasure, and a deliverer that wrote a result an erasure had begun).
 */
export const deleteVersions = async (
  deps: { s3: S3Client; bucket: string },
  prefix: string,
  pick: (version: ListedVersion) => boolean,
): Promise<number> => {
  let deleted = 0;
  // The SDK has no paginator for ListObjectVersions: it pages by key and version-id markers.
  let page: ListObjectVersionsCommandOutput | undefined;
  do {
    page = await deps.s3.send(
      new ListObjectVersionsCommand({
        Bucket: deps.bucket,
        Prefix: prefix,
        ...(page?.NextKeyMarker && { KeyMarker: page.NextKeyMarker }),
        ...(page?.NextVersionIdMarker && { VersionIdMarker: page.NextVersionIdMarker }),
      }),
    );
    const objects: ObjectIdentifier[] = [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])]
      .filter(pick)
      .map((v) => ({ Key: v.Key as string, ...(v.VersionId && { VersionId: v.VersionId }) }));
    if (objects.length === 0) continue;
    await deps.s3.send(
      new DeleteObjectsCommand({ Bucket: deps.bucket, Delete: { Objects: objects, Quiet: true } }),
    );
    deleted += objects.length;
  } while (page.IsTruncated);
  return deleted;
};
