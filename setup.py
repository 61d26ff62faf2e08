"Packaging for aerial_nb, read from `settings.ini` (nbdev's single source of project metadata)."
from configparser import ConfigParser
from pathlib import Path
import setuptools

cfg = ConfigParser(delimiters=['='])
cfg.read(Path(__file__).parent/'settings.ini', encoding='utf-8')
cfg = cfg['DEFAULT']

licenses = {'apache2': ('Apache Software License 2.0', 'OSI Approved :: Apache Software License')}
lic = licenses[cfg['license']]
statuses = ['1 - Planning', '2 - Pre-Alpha', '3 - Alpha', '4 - Beta', '5 - Production/Stable', '6 - Mature', '7 - Inactive']
py_versions = '3.10 3.11 3.12 3.13'.split()
min_python = cfg['min_python']
readme = Path(__file__).parent/'README.md'

setuptools.setup(
    name=cfg['lib_name'],
    version=cfg['version'],
    description=cfg['description'],
    long_description=readme.read_text(encoding='utf-8') if readme.exists() else cfg['description'],
    long_description_content_type='text/markdown',
    author=cfg['author'], author_email=cfg['author_email'],
    license=lic[0], keywords=cfg['keywords'].split(),
    url=cfg['git_url'],
    packages=setuptools.find_packages(include=[cfg['lib_name'], cfg['lib_name'] + '.*']),
    include_package_data=True,
    package_data={cfg['lib_name']: ['data/README.md', 'data/*/*']},   # the ten UCI tables load_uci reads offline
    install_requires=cfg['requirements'].split(),
    # bench: baselines and comparison packages, imported only where a baseline runs (the studies, aerial_nb.studies, and quality.exhaustive_rules);
    # dask: a Dask cluster's workers read and count (the cluster chapter), imported only when a cluster is asked for;
    # sklearn: the scikit-learn classifier (the classifier chapter), imported only by aerial_nb.classifier
    extras_require={'bench': cfg['bench_requirements'].split(), 'dask': cfg['dask_requirements'].split(),
                    'sklearn': cfg['sklearn_requirements'].split(),
                    'dev': (cfg['dev_requirements'].split() + cfg['bench_requirements'].split() + cfg['dask_requirements'].split()
                            + cfg['sklearn_requirements'].split())},
    python_requires='>=' + min_python,
    classifiers=['Development Status :: ' + statuses[int(cfg['status'])],
                 'Intended Audience :: ' + cfg['audience'].title(),
                 'License :: ' + lic[1], 'Natural Language :: ' + cfg['language'].title()]
                + ['Programming Language :: Python :: ' + v for v in py_versions[py_versions.index(min_python):]],
    # commands other packages add to aerial-nb (the cli chapter): the studies add `bench`
    entry_points={'console_scripts': cfg['console_scripts'].split('\n'),
                  'aerial_nb.commands': cfg['commands'].split('\n'),
                  'nbdev': [f"{cfg['lib_name']}={cfg['lib_name']}._modidx:d"]},
    zip_safe=False,
)
