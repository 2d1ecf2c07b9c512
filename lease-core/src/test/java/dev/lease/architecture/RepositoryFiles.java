/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.lease.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The repository's own files, for the tests that read them: its root (the parent of the
 * module the tests run in), its files outside build output and tool folders, and their
 * text.
 *
 * @author Lease contributors
 */
final class RepositoryFiles {

	static final Path ROOT = Path.of("").toAbsolutePath().getParent();

	private static final Set<String> SKIPPED = Set.of("target", ".git", ".mvn", "node_modules", ".idea");

	private RepositoryFiles() {
	}

	// Every regular file the predicate accepts, outside the skipped folders. The walk
	// never enters them: the build writes and deletes files under target while these
	// tests run beside it, and a walk that lists a file there may find it gone.
	static List<Path> matching(Predicate<Path> wanted) {
		List<Path> found = new ArrayList<>();
		try {
			Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {

				@Override
				public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
					return SKIPPED.contains(String.valueOf(dir.getFileName())) ? FileVisitResult.SKIP_SUBTREE
							: FileVisitResult.CONTINUE;
				}

				@Override
				public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
					if (attributes.isRegularFile() && wanted.test(file)) {
						found.add(file);
					}
					return FileVisitResult.CONTINUE;
				}

			});
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return found;
	}

	static String read(Path file) {
		try {
			return Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
